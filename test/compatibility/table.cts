/**
 * Turns the verdicts of every case into the compatibility table of docs/compatibility.md, one row per
 * operation.
 */
import type { RequestBodyStyle } from '../../nodes/shared/transport';
import type { Verdict } from './verdicts.cts';

export const STYLES: RequestBodyStyle[] = ['chatIdSession', 'jidSessionId'];
export const SHAPE_OF: Record<RequestBodyStyle, string> = {
	chatIdSession: 'shape A',
	jidSessionId: 'shape B',
};

export const PRODUCTS = {
	spec: 'Spec gateway',
	evolution: 'Evolution API v1.8.2',
	evolutionV2: 'Evolution API v2.3.6',
	waha: 'WAHA 2026',
} as const;
export type Product = keyof typeof PRODUCTS;
/** The products a credential names in its Gateway field: their cells say the route when it is their own. */
const OWN_ROUTES: ReadonlySet<Product> = new Set(['evolutionV2', 'waha']);

export interface CaseResult {
	/** Undefined for the operation's main case; e.g. "with a binary picture" for a variant. */
	variant?: string;
	style: RequestBodyStyle;
	/**
	 * The products that judged this run: the spec's gateway's runs are judged by the spec and
	 * Evolution v1.8.2; a run with the credential's Gateway set to a product by that product alone.
	 */
	verdicts: Partial<Record<Product, Verdict>>;
}

export interface OperationResult {
	/** e.g. "Message: Send Text" */
	operation: string;
	/** The spec's route for it, e.g. `POST /message/sendText/{instanceName}`. */
	endpoint: string;
	results: CaseResult[];
}

const MAX_REASONS = 2;

function why(verdict: Verdict): string {
	if (verdict.outcome === 'accepted') return '';
	if (verdict.outcome === 'absent') return verdict.reason;
	return verdict.reasons.slice(0, MAX_REASONS).join('; ');
}

/** "x" when every style failed for the same reason, else "shape A: x; shape B: y". */
function reasonsByStyle(failed: CaseResult[], product: Product): string {
	const reasons = failed.map((result) => why(result.verdicts[product]!));
	if (new Set(reasons).size === 1) return reasons[0];
	return failed.map((result, index) => `${SHAPE_OF[result.style]}: ${reasons[index]}`).join('; ');
}

/**
 * One cell: "— (…)" when the product has no such endpoint, "✗ (…)" when the main case fails in
 * every style, else "✓" or "✓ shape A", followed by what fails with the other style and with variants.
 */
export function cell(allResults: CaseResult[], product: Product, rowEndpoint?: string): string {
	const results = allResults.filter((result) => result.verdicts[product] !== undefined);
	const verdictOf = (result: CaseResult) => result.verdicts[product]!;
	const verdicts = results.map(verdictOf);
	if (verdicts.every((verdict) => verdict.outcome === 'absent')) return `— (${why(verdicts[0])})`;
	const main = results.filter((result) => result.variant === undefined);
	const passing = main.filter((result) => verdictOf(result).outcome === 'accepted');
	if (passing.length === 0) return `✗ (${reasonsByStyle(main, product)})`;
	const parts = [passing.length === main.length ? '✓' : `✓ ${SHAPE_OF[passing[0].style]}`];
	// A product that takes the operation on another route says which.
	const passingVerdict = verdictOf(passing[0]);
	if (
		passingVerdict.outcome === 'accepted' &&
		rowEndpoint &&
		passingVerdict.endpoint !== rowEndpoint
	) {
		parts[0] += ` \`${passingVerdict.endpoint}\``;
	}
	const failingMain = main.filter((result) => verdictOf(result).outcome !== 'accepted');
	if (failingMain.length > 0) {
		parts.push(`${SHAPE_OF[failingMain[0].style]} ✗ (${reasonsByStyle(failingMain, product)})`);
	}
	const passingStyles = new Set(passing.map((result) => result.style));
	const failingVariants = results.filter(
		(result) =>
			result.variant !== undefined &&
			passingStyles.has(result.style) &&
			verdictOf(result).outcome !== 'accepted',
	);
	for (const variant of new Set(failingVariants.map((result) => result.variant))) {
		const failed = failingVariants.filter((result) => result.variant === variant);
		parts.push(`✗ ${variant} (${reasonsByStyle(failed, product)})`);
	}
	return parts.join('; ');
}

function escapeCell(text: string): string {
	return text.replace(/\|/g, '\\|');
}

export function renderTable(rows: OperationResult[]): string {
	const products = Object.keys(PRODUCTS) as Product[];
	const lines = [
		`| Operation | ${products.map((product) => PRODUCTS[product]).join(' | ')} |`,
		`| --- | ${products.map(() => '---').join(' | ')} |`,
		...rows.map((row) =>
			[
				`${row.operation}<br>\`${row.endpoint}\``,
				...products.map((product) =>
					cell(row.results, product, OWN_ROUTES.has(product) ? row.endpoint : undefined),
				),
			]
				.map(escapeCell)
				.join(' | '),
		),
	];
	return lines.map((line) => (line.startsWith('|') ? line : `| ${line} |`)).join('\n');
}
