/** Each package's public API report (package folder name -> markdown), from the sources. */
export function apiReports(): Record<string, string>;
