// Instance family (Evolution v1): groups endpoints beyond the spec (issue 12).
import type { Route } from '../core.cts';

export const instanceGroupsRoutes: Route[] = [];
