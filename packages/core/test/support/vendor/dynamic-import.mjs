// Plain JavaScript in a `vendor/` folder, as pdf.js is in @quarry/nodes: a pool process running
// TypeScript sources loads it as written (see the process-pool test).
export const loadOs = () => import('node:os');
