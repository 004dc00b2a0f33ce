import { nodePath, type NodeView, type PathProblem } from '@quarry/core';
import { retiredModel } from './models.js';

/** `model.retired` when the node's `model` setting was retired at `now`. */
export function retiredModelProblems(self: NodeView, now: Date): PathProblem[] {
  const retired = retiredModel(self.settings.model, now);
  if (!retired) return [];
  return [
    {
      code: 'model.retired',
      path: [...nodePath(self), 'settings', 'model'],
      message: `model ${JSON.stringify(retired.model)} was retired on ${retired.retired}; workflows using it fail from that date. Use a current ${retired.provider} model such as ${retired.replacement}`,
    },
  ];
}
