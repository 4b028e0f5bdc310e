// Instance family (Evolution v1): contacts endpoints beyond the spec (issue 12).
import type { Route } from '../core.cts';

export const instanceContactsRoutes: Route[] = [];
