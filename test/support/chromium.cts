/**
 * The Chromium that drives n8n's editor (the editor test and `npm run screenshots`), through
 * playwright-core, which never downloads a browser of its own. Debian's `chromium` package is used;
 * a fresh Debian machine where the tests run as root (CI: `npm install && npm test`) gets it
 * installed with apt-get once, under the same lock as the n8n install, so two runs that start at
 * once do not both call apt-get. Anywhere else a missing Chromium is a clear error.
 */
import { debianProgram } from './debian-package.cts';

/** Debian's Chromium; CHROMIUM_PATH points at another Chromium or Chrome binary. */
export const CHROMIUM_BIN = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The path of a usable Chromium, installing Debian's package first where that is allowed. */
export function chromiumPath(): string {
	return debianProgram({
		binary: CHROMIUM_BIN,
		debianPackage: 'chromium',
		// Only the default path is what apt-get installs; another one must exist.
		installable: CHROMIUM_BIN === '/usr/bin/chromium',
		label: 'chromium',
		neededFor: "Chromium is needed to drive n8n's editor",
		alternatives:
			'(`chromium-browser` on Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary. No browser is downloaded',
	});
}
