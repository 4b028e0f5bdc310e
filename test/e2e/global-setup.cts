import { installN8n } from './n8n-install.cts';

/** Installs the pinned n8n before any end-to-end test (once per machine; later runs reuse it). */
export default function globalSetup(): void {
	installN8n();
}
