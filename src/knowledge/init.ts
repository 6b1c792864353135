/** `compound init`: the knowledge/ folder a reviewer can understand at a glance. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, CONFIG_TEMPLATE } from '../core/config.js';
import { buildIndex, renderIndex } from './index-file.js';
import { emptyLedger, renderLedger } from './ledger.js';
import { INDEX_FILE, LEDGER_FILE, KNOWLEDGE_DIR } from './paths.js';
import { abs } from './fsutil.js';

export const KNOWLEDGE_README = `# knowledge/

This folder is a knowledge base written by [compound](https://www.npmjs.com/package/compounding-intelligence)
from finished AI coding-agent sessions, and reviewed here like code.

- One markdown file per item: \`global/\`, \`repos/<repo>/\`, \`agents/<agent>/\`, then the category
  (\`fact\`, \`pitfall\`, \`pattern\`, \`tool-quirk\`, \`question\`).
- The front matter is for machines (id, confidence, evidence, sources); the body is the knowledge:
  one to three sentences. **Edit the body freely**: the harvester never overwrites an edited body.
- **Delete a file to reject an item**: it will not be harvested again.
- \`index.json\` and \`ledger.json\` are generated: never edit them by hand; run \`compound reindex\`.
- \`compound check\` validates everything (schema, paths, index, secrets) and is what CI runs.
`;

const GITATTRIBUTES = `# generated files: collapsed in pull-request diffs, and LF on every checkout (a session start
# reads index.json by its lines; compound writes LF)
index.json linguist-generated=true text eol=lf
ledger.json linguist-generated=true text eol=lf
`;

const GITIGNORE = `.lock
.journal.json
*.tmp-*
`;

export interface InitResult {
  created: string[];
  existing: string[];
}

/** Creates what is missing; never overwrites an existing file. */
export function initStore(root: string): InitResult {
  const files: [string, string][] = [
    [`${KNOWLEDGE_DIR}/README.md`, KNOWLEDGE_README],
    [`${KNOWLEDGE_DIR}/.gitattributes`, GITATTRIBUTES],
    [`${KNOWLEDGE_DIR}/.gitignore`, GITIGNORE],
    [INDEX_FILE, renderIndex(buildIndex([]))],
    [LEDGER_FILE, renderLedger(emptyLedger())],
    [CONFIG_FILE, CONFIG_TEMPLATE],
  ];
  mkdirSync(join(root, KNOWLEDGE_DIR), { recursive: true });
  const created: string[] = [];
  const existing: string[] = [];
  for (const [rel, content] of files) {
    const file = abs(root, rel);
    if (existsSync(file)) existing.push(rel);
    else {
      writeFileSync(file, content);
      created.push(rel);
    }
  }
  return { created, existing };
}
