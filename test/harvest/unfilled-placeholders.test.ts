/** A prompt template's placeholder that reached the agent unfilled and ran in a command line. */
import { describe, expect, it } from 'vitest';
import { unfilledPlaceholderDrafts } from '../../src/harvest/extract/rules/unfilled-placeholders.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { errorLine } from '../../src/harvest/extract/diagnosis.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const TEMPLATE = '---\ndescription: Create or update the feature specification.\n---\n\n1. Run `.specify/scripts/powershell/create-new-feature.ps1 -Json "$ARGUMENTS"` from the repo root.\n2. Write the spec.';
const RUN = '& .specify/scripts/powershell/create-new-feature.ps1 -Json "$ARGUMENTS"';
const USAGE = 'create-new-feature.ps1 : Usage: ./create-new-feature.ps1 [-Json] <feature description>\nAt line:1 char:1';

describe('a prompt template\'s $ARGUMENTS that reached a command unfilled', () => {
  it('is told once, with the usage the script answered', () => {
    const session = new SessionBuilder({ agent: 'codex' }).user(TEMPLATE).bash(RUN, USAGE, 1).bash(RUN, USAGE, 1).build();
    const drafts = unfilledPlaceholderDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ category: 'pitfall', scope: 'agent', title: "A prompt's $ARGUMENTS reached the command unfilled" });
    expect(drafts[0]!.text).toBe(
      '`create-new-feature.ps1` answered `Usage: ./create-new-feature.ps1 [-Json] <feature description>`: the prompt\'s `$ARGUMENTS` reached the agent unfilled and the shell expanded it to nothing. The text did not reach the agent: when a prompt shows `$ARGUMENTS` as it is, ask the user for that text before running anything with it.',
    );
  });

  it("quotes the template's own line that told the agent to go on without the text", () => {
    const misleading = TEMPLATE.replace('---\n\n', '---\n\nUser input:\n\n$ARGUMENTS\n\nAssume you always have it available even if `$ARGUMENTS` appears literally below.\n\n');
    const session = new SessionBuilder({ agent: 'codex' }).user(misleading).bash(RUN, 'Usage: ./create-new-feature.ps1\r\n[-Json] <feature description>', 1).build();
    expect(unfilledPlaceholderDrafts(viewOf(session))[0]!.text).toBe(
      '`create-new-feature.ps1` answered `Usage: ./create-new-feature.ps1`: the prompt\'s `$ARGUMENTS` reached the agent unfilled and the shell expanded it to nothing. The template says "Assume you always have it available even if `$ARGUMENTS` appears literally below"; it was not: when a prompt shows `$ARGUMENTS` as it is, ask the user for that text before running anything with it.',
    );
  });

  it('says nothing of a failure before the argument mattered, nor of a filled-in prompt', () => {
    // the script not found from the wrong folder: its own failure, not the placeholder's
    const notFound = new SessionBuilder().user(TEMPLATE).bash(RUN, "The term '.specify/scripts/powershell/create-new-feature.ps1' is not recognized as the name of a cmdlet", 1).build();
    expect(unfilledPlaceholderDrafts(viewOf(notFound))).toEqual([]);
    // the prompt came filled in: a failure of the command is another story
    const filled = new SessionBuilder().user(TEMPLATE.replace('$ARGUMENTS', 'Add a login page')).bash(RUN.replace('$ARGUMENTS', 'Add a login page'), USAGE, 1).build();
    expect(unfilledPlaceholderDrafts(viewOf(filled))).toEqual([]);
  });

  it('is this rule\'s failure alone: no error item of the same run beside it', () => {
    const record = `${USAGE}\n+ & .specify/scripts/powershell/create-new-feature.ps1 -Json "$ARGUMENTS"\n+ ~~~~~~~~~~~~~\n    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\n    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException,create-new-feature.ps1`;
    const session = new SessionBuilder({ agent: 'codex' })
      .user(TEMPLATE)
      .bash(RUN, record, 1)
      .assistant('The script failed because the feature description was empty.')
      .build();
    expect(unfilledPlaceholderDrafts(viewOf(session))).toHaveLength(1);
    expect(errorFixDrafts(viewOf(session))).toEqual([]);
  });
});

describe("a PowerShell error record's error", () => {
  it('is its message, the script that wrote it and the record\'s labels left out', () => {
    const record = 'C:\\app\\create-new-feature.ps1 : Usage: ./create-new-feature.ps1\n[-Json] <feature description>\nIn Zeile:1 Zeichen:1\n+ & .specify/x.ps1 -Json\n+ ~~~\n    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\n    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException,create-new-feature.ps1';
    expect(errorLine(record)).toBe('Usage: ./create-new-feature.ps1 [-Json] <feature description>');
    const notFound = "gradle : The term 'gradle' is not recognized as the name of a cmdlet, function, script file, or operable program.\nAt line:1 char:1\n+ gradle build\n+ ~~~~~~\n    + CategoryInfo          : ObjectNotFound: (gradle:String) [], CommandNotFoundException\n    + FullyQualifiedErrorId : CommandNotFoundException";
    expect(errorLine(notFound)).toBe("The term 'gradle' is not recognized as the name of a cmdlet, function, script file, or operable program.");
  });

  it('is its id where the id names the error, in whatever language the message is', () => {
    const record = "Die Zeichenfolge hat kein Abschlusszeichen: '.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : TerminatorExpectedAtEndOfString";
    expect(errorLine(record)).toBe('+ FullyQualifiedErrorId : TerminatorExpectedAtEndOfString');
  });
});
