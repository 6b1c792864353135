/**
 * A union of types that fails at run time, or pip refusing a package for the interpreter's
 * version, says the project needs a newer Python: told of the repository once.
 */
import { describe, expect, it } from 'vitest';
import { pythonTooOldDrafts } from '../../src/harvest/extract/rules/python-too-old.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const pytestTraceback = [
  "ConftestImportFailure: TypeError: unsupported operand type(s) for |: 'types.GenericAlias' and 'NoneType' (from /home/dev/demo/tests/conftest.py)",
  "  File \"/usr/lib/python3.9/site-packages/_pytest/config/__init__.py\", line 331, in parse",
  'tests/conftest.py:81: in <module>',
  '    from src.risk.risk_manager import RiskParameters',
  'src/risk/risk_manager.py:42: in RiskParameters',
  '    partial_exit_targets: list[float] | None = None',
  "E   TypeError: unsupported operand type(s) for |: 'types.GenericAlias' and 'NoneType'",
].join('\n');

describe('the project needs a newer Python', () => {
  it('names the line that joins types with `|`, the interpreter that failed and what then ran', () => {
    const b = new SessionBuilder()
      .bash('python3 -m pytest tests/unit -q', pytestTraceback, 1)
      .bash('python3 --version', 'Python 3.9.6')
      .bash('python3.11 -m pytest tests/unit -q', '12 passed');
    const [item] = pythonTooOldDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ category: 'pitfall', scope: 'repo', title: 'The code needs Python 3.10+ (`X | None` annotations fail under Python 3.9)' });
    expect(item!.text).toBe(
      "`src/risk/risk_manager.py:42` (`partial_exit_targets: list[float] | None = None`) joins types with `|`, which Python evaluates when the module loads and supports only from 3.10: under Python 3.9, `python3 -m pytest tests/unit -q` failed with `TypeError: unsupported operand type(s) for |: 'types.GenericAlias' and 'NoneType'`. Run the project with Python 3.10 or newer; `python3.11 -m pytest tests/unit -q` then ran.",
    );
    // Python's own traceback form, the version from the session's `--version`
    const plain = new SessionBuilder()
      .bash('python3 app.py', 'Traceback (most recent call last):\n  File "/home/dev/demo/app.py", line 3, in <module>\n    def load(path: str | None = None) -> dict:\nTypeError: unsupported operand type(s) for |: \'type\' and \'NoneType\'', 1)
      .bash('python3 --version', 'Python 3.8.10');
    const [own] = pythonTooOldDrafts(viewOf(plain.build()));
    expect(own!.title).toBe('The code needs Python 3.10+ (`X | None` annotations fail under Python 3.8.10)');
    expect(own!.text).toMatch(/^`\/home\/dev\/demo\/app\.py:3` \(`def load\(path: str \| None = None\) -> dict:`\) joins types with `\|`/);
  });

  it("tells pip's refusal with the version it wants", () => {
    const b = new SessionBuilder().bash('pip install -e .', "ERROR: Package 'ai-trading-bot' requires a different Python: 3.9.6 not in '>=3.11'", 1);
    const [item] = pythonTooOldDrafts(viewOf(b.build()));
    expect(item!.title).toBe('ai-trading-bot requires Python >=3.11 (pip refuses it under 3.9.6)');
    expect(item!.text).toContain("`ai-trading-bot` requires Python `>=3.11`, and `pip install -e .` ran under Python 3.9.6");
  });

  it('says nothing of `|` between values, or between a type and a string', () => {
    const data = new SessionBuilder().bash('python3 calc.py', "TypeError: unsupported operand type(s) for |: 'str' and 'int'", 1);
    expect(pythonTooOldDrafts(viewOf(data.build()))).toEqual([]);
    // (`int | "Model"` fails on every version: a forward reference, not an old interpreter)
    const forward = new SessionBuilder().bash('python3 models.py', "TypeError: unsupported operand type(s) for |: 'type' and 'str'", 1);
    expect(pythonTooOldDrafts(viewOf(forward.build()))).toEqual([]);
  });
});
