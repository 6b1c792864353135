/**
 * A draft's tags become slugs in the candidate, and a slug hides what redaction looks for (an
 * address `jane@corp.io` becomes `jane-corp.io`): a tag holding a secret or a personal detail is
 * left out before it is made a slug. PowerShell's own statements name no command family, and a
 * Windows program's UTF-16 output is read without its NULs.
 */
import { describe, expect, it } from 'vitest';
import { makeCandidate } from '../../src/harvest/extract/build.js';
import { family, mainCommand } from '../../src/harvest/extract/commands.js';
import { SessionBuilder } from './extract-session.js';

describe('candidate tags', () => {
  it('leaves out a tag that holds an e-mail address or a token, keeps the others', () => {
    const session = new SessionBuilder().user('scan the profiles').bash('Get-ChildItem $p', 'ok').build();
    const c = makeCandidate(session, {
      category: 'fact',
      title: 'Edge keeps profiles under Local State',
      text: 'Edge keeps its profiles in `Local State`.',
      confidence: 0.8,
      event: 1,
      tags: ["$email='jane.doe@corp.io'", 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'Get-ChildItem', 'edge'],
      rule: 'test',
      score: 1,
    });
    expect(c.tags).toEqual(['edge', 'get-childitem']);
  });
});

describe('PowerShell statements', () => {
  it('have no family: an assignment of a literal, a block keyword, a brace, a variable expression', () => {
    for (const s of ["$email='jane.doe@corp.io'", '$paths=@( "$env:APPDATA\\Microsoft"', 'foreach($p in $paths){ Write-Output $p', 'if(Test-Path $x){ Get-ChildItem $x', '$i++ }', '} } Write-Output "DONE"', '$json.PSObject.Properties', 'return'])
      expect(family(s), s).toBe('');
  });

  it('an assignment of a command\'s output runs that command', () => {
    expect(family('$json = Get-Content -LiteralPath $p -Raw')).toBe('Get-Content');
    expect(mainCommand("$email='jane.doe@corp.io'; Get-ChildItem -LiteralPath $p -Recurse")).toBe('Get-ChildItem -LiteralPath $p -Recurse');
    // a shell's own environment setting is left as it was
    expect(family('NODE_ENV=production npm run build')).toBe('npm run build');
  });
});

describe('output a Windows program wrote in UTF-16', () => {
  it('is read without the NUL after every character', async () => {
    const { cleanText } = await import('../../src/harvest/extract/text.js');
    const { viewOf } = await import('../../src/harvest/extract/view.js');
    const utf16 = [...'Access is denied. \nError code: Bash/Service/CreateInstance/E_ACCESSDENIED\n'].map((c) => `${c}\u0000`).join('');
    expect(cleanText(utf16)).toBe('Access is denied. \nError code: Bash/Service/CreateInstance/E_ACCESSDENIED\n');
    const step = viewOf(new SessionBuilder().user('export it').bash('bash export.sh .', utf16, 1).build()).steps[0]!;
    expect(step.output).toContain('E_ACCESSDENIED');
  });
});
