// compound.config.yaml as `init` writes it is read without loading the YAML library (it costs
// about 60 ms of every command's start); what it gives must stay what YAML parsing gives.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, CONFIG_TEMPLATE, loadConfig } from '../../src/core/config.js';
import { PROJECT_ROOT, tempDir } from '../helpers.js';

function storeWithConfig(text: string): string {
  const root = tempDir();
  mkdirSync(join(root, 'knowledge'));
  writeFileSync(join(root, CONFIG_FILE), text);
  return root;
}

describe('loadConfig', () => {
  it('gives for the template what the YAML parser gives for it', () => {
    const fast = loadConfig(storeWithConfig(CONFIG_TEMPLATE));
    const parsed = loadConfig(storeWithConfig(`${CONFIG_TEMPLATE}# edited, so the YAML parser reads it\n`));
    expect(fast).toEqual(parsed);
    // fresh objects each time: a caller that changes its config changes no one else's
    fast.redact_users.push('x');
    expect(loadConfig(storeWithConfig(CONFIG_TEMPLATE)).redact_users).toEqual([]);
  });

  it('loads the YAML library only for a config that is not the template', () => {
    const yamlLoaded = (text: string): boolean => {
      const root = storeWithConfig(text);
      const script = `import { createRequire } from 'node:module';
        const { loadConfig } = await import(${JSON.stringify(join(PROJECT_ROOT, 'dist/core/config.js'))});
        loadConfig(${JSON.stringify(root)});
        const cache = createRequire(import.meta.url).cache;
        console.log(Object.keys(cache).some((k) => k.includes('/node_modules/yaml/')));`;
      return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim() === 'true';
    };
    expect(yamlLoaded(CONFIG_TEMPLATE)).toBe(false);
    expect(yamlLoaded(CONFIG_TEMPLATE.replace('bootstrap_budget: 2000', 'bootstrap_budget: 3000'))).toBe(true);
  });
});
