#!/usr/bin/env node
// Runs a CommonJS TypeScript (.cts) script of the test tooling (simulator, sandbox, e2e) without a build step:
// each .cts file is transpiled on load with the project's own TypeScript. Type checking happens in `npm test`.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

require.extensions['.cts'] = (module, filename) => {
	const source = fs.readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
			sourceMap: false,
			inlineSourceMap: true,
		},
	});
	module._compile(outputText, filename);
};

const [script, ...args] = process.argv.slice(2);
if (!script) {
	console.error('usage: node test/support/run-ts.js <script.cts> [args...]');
	process.exit(2);
}
process.argv = [process.argv[0], path.resolve(script), ...args];
require(path.resolve(script));
