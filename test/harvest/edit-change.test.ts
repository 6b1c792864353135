/** A fix that was one small edit is told by its change, not by the file's name alone. */
import { describe, expect, it } from 'vitest';
import { smallChange } from '../../src/harvest/extract/edit-change.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const edit = (old_string: string, new_string: string) =>
  viewOf(new SessionBuilder().user('fix it').tool('Edit', { file_path: '/repo/report.py', old_string, new_string }, 'ok').build()).steps[0]!;

describe('smallChange', () => {
  it('gives the differing words of the one line an edit changed, widened to whole tokens', () => {
    const save = (ext: string) => `    # Save\n    out = f"{base}_reportfile.${ext}"\n    df.to_excel(out, index=False)\n`;
    expect(smallChange(edit(save('xls'), save('xlsx')))).toEqual({ before: '_reportfile.xls', after: '_reportfile.xlsx' });
    expect(smallChange(edit("d = datetime.strptime(s, '%d/%m/%y')", "d = datetime.strptime(s, '%d/%m/%Y')"))).toEqual({ before: '%d/%m/%y', after: '%d/%m/%Y' });
    // (an edit tool that names its texts in camelCase, as OpenCode's does)
    const camel = viewOf(new SessionBuilder().user('fix it').tool('edit', { filePath: '/repo/a.ts', oldString: 'const port = 3000;', newString: 'const port = 8080;' }, 'ok').build()).steps[0]!;
    expect(smallChange(camel)).toEqual({ before: '3000', after: '8080' });
  });

  it('is none for several changed lines, an insertion, a deletion or a long change', () => {
    expect(smallChange(edit('a = 1\nb = 2\n', 'a = 3\nb = 4\n'))).toBeUndefined();
    expect(smallChange(edit('a = 1\n', 'a = 1\nb = 2\n'))).toBeUndefined();
    expect(smallChange(edit('a = 1\nb = 2\n', 'a = 1\n'))).toBeUndefined();
    expect(smallChange(edit(`x = "${'a'.repeat(70)}"`, `x = "${'b'.repeat(70)}"`))).toBeUndefined();
  });
});

describe('a fix with one small edit on the way', () => {
  it('says what the edit changed', () => {
    const session = new SessionBuilder()
      .user('make the report')
      .bash('python3 report.py 507.csv', "pandas._config.config.OptionError: No such keys(s): 'io.excel.xls.writer'", 1)
      .tool('Edit', { file_path: '/repo/report.py', old_string: 'out = f"{base}_report.xls"', new_string: 'out = f"{base}_report.xlsx"' }, 'ok')
      .bash('pip3 install openpyxl', 'Successfully installed openpyxl-3.1.5')
      .bash('python3 report.py 507.csv', 'Report saved to 507_report.xlsx')
      .build();
    const [d] = errorFixDrafts(viewOf(session));
    expect(d!.text).toContain('Fix: edited `report.py` (`_report.xls` → `_report.xlsx`), `pip3 install openpyxl`, then `python3 report.py 507.csv` succeeded.');
  });
});
