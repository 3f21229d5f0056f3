import { Route, RouteInput, RoutePatch } from '../../schema/route.js';
import { entityRoutes } from '../entity-routes.js';

/** /routes: which source plays on which sink. */
export default entityRoutes({
  kind: 'route',
  tag: 'Routes',
  noun: 'Route',
  entity: Route,
  input: RouteInput,
  patch: RoutePatch,
  renameNote: 'changes nothing else (nothing refers to routes by name)',
});
