// Evolution API 2.4.0's licence (src/licensing/runtime.ts gateMiddleware, src/api/routes/license.router.ts):
// until the instance is activated, every business route answers 503 LICENSE_REQUIRED, before the
// apikey guard; the root, the licence routes and the manager's files are let through.
import type { Reply, RequestContext, Route } from './core.cts';

/** The runtime's instance id (rc.instanceId, a UUID kept on disk): the same for every simulator. */
export const LICENCE_INSTANCE_ID = '7d3f5a1e-2b4c-4d6e-8f90-a1b2c3d4e5f6';

const DOCS_URL = 'https://docs.evolutionfoundation.com.br/licensing';

/** What gateMiddleware lets through whatever the licence says. */
function exempt(path: string): boolean {
	return (
		['/', '/health', '/server/ok', '/favicon.ico', '/ws'].includes(path) ||
		['/license/status', '/license/register', '/license/activate'].includes(path) ||
		['/manager', '/assets', '/store'].some((prefix) => path.startsWith(prefix)) ||
		/\.(svg|css|js|png|ico|woff2?|ttf|map)$/i.test(path) ||
		// The simulator's stand-in for WhatsApp's media servers is not Evolution's.
		path.startsWith('/api/files/')
	);
}

/** `<scheme>://<host>/manager/login`, as the gate builds it from the request. */
function managerLoginUrl(context: RequestContext): string {
	const forwarded = context.headers['x-forwarded-proto'];
	const scheme = (Array.isArray(forwarded) ? forwarded[0] : forwarded) || 'http';
	return `${scheme}://${context.headers.host}/manager/login`;
}

/** The 503 of an instance that is not activated, or undefined when the request may go on. */
export function licenceGate(context: RequestContext): Reply | undefined {
	if (context.core.licensed || exempt(context.rawPath)) return undefined;
	const managerUrl = managerLoginUrl(context);
	return {
		status: 503,
		body: {
			error: 'service not activated',
			code: 'LICENSE_REQUIRED',
			register_url: managerUrl,
			instance_id: LICENCE_INSTANCE_ID,
			docs_url: DOCS_URL,
			message: `This Evolution API instance is not activated. Open ${managerUrl} to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key. Docs: ${DOCS_URL}`,
		},
	};
}

const ALREADY_ACTIVE = { status: 'active', message: 'License is already active' };

function queryText(context: RequestContext, name: string): string {
	const value = context.query[name];
	return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The public licence routes. Registration has no licensing server to ask: it points at the
 * manager's login, and any non-empty code activates (where the real server checks it).
 */
export const licenceRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/license/status',
		family: 'instance',
		handler: (context) => ({
			status: 200,
			body: {
				status: context.core.licensed ? 'active' : 'inactive',
				instance_id: LICENCE_INSTANCE_ID,
			},
		}),
	},
	{
		method: 'GET',
		pattern: '/license/register',
		family: 'instance',
		handler: (context) => ({
			status: 200,
			body: context.core.licensed
				? ALREADY_ACTIVE
				: { status: 'pending', register_url: managerLoginUrl(context) },
		}),
	},
	{
		method: 'GET',
		pattern: '/license/activate',
		family: 'instance',
		handler: (context) => {
			if (context.core.licensed) return { status: 200, body: ALREADY_ACTIVE };
			if (!queryText(context, 'code')) {
				return {
					status: 400,
					body: {
						error: 'Missing code parameter',
						message: 'Provide ?code=AUTHORIZATION_CODE from the registration callback.',
					},
				};
			}
			context.core.licensed = true;
			return {
				status: 200,
				body: { status: 'active', message: 'License activated successfully!' },
			};
		},
	},
];
