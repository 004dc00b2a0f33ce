import { describe, expect, it } from 'vitest';
import { nerPromptIssues, nerSettings } from '../../src/prompter/ner.node.js';
import { prompterSettings } from '../../src/prompter/prompter-settings.js';
import { twopassTable2htmlSettings } from '../../src/prompter/twopass-table2html.node.js';
import { NER_PROMPT_OK } from './problem-fixtures.js';

describe('prompter settings schemas', () => {
  it('normalize provider_type aliases', () => {
    expect(prompterSettings().parse({ provider_type: 'provider_c', model: 'gpt-4o-mini' })).toEqual({ provider_type: 'openai', model: 'gpt-4o-mini' });
  });

  it('reject an empty model and unknown keys', () => {
    expect(prompterSettings().safeParse({ provider_type: 'openai', model: '' }).success).toBe(false);
    expect(prompterSettings().safeParse({ provider_type: 'openai', model: 'gpt-4o', temperature: 0 }).success).toBe(false);
  });

  it('nerSettings takes the prompt override and checks it', () => {
    expect(
      nerSettings().parse({ provider_type: 'anthropic', model: 'claude-sonnet-4-20250514', prompt_interface_overrides: { prompt: { user: NER_PROMPT_OK } } })
        .prompt_interface_overrides?.prompt?.user,
    ).toBe(NER_PROMPT_OK);
    expect(
      nerSettings().safeParse({ provider_type: 'anthropic', model: 'claude-sonnet-4-20250514', prompt_interface_overrides: { prompt: { user: 'hi' } } })
        .success,
    ).toBe(false);
    expect(
      nerSettings().safeParse({ provider_type: 'anthropic', model: 'claude-sonnet-4-20250514', prompt_interface_overrides: { prompt: { system: 'x' } } })
        .success,
    ).toBe(false);
  });

  it('twopass_table2html takes nothing', () => {
    expect(twopassTable2htmlSettings().parse({})).toEqual({});
    expect(twopassTable2htmlSettings().safeParse({ model: 'gpt-4o' }).error?.issues[0]?.message).toContain('no provider_type or model');
  });
});

describe('nerPromptIssues', () => {
  it('accepts the markers in order with every key', () => {
    expect(nerPromptIssues(NER_PROMPT_OK)).toEqual([]);
  });

  it('matches keys as whole words', () => {
    const issues = nerPromptIssues(NER_PROMPT_OK.replace('"relationship" and', '"relationshipType" and'));
    expect(issues).toEqual([{ code: 'ner.prompt_json_keys', message: expect.stringContaining('not mentioned: relationship') }]);
  });

  it('needs {{text}} after the start marker and before the end marker', () => {
    expect(nerPromptIssues('items entity type relationships from relationship to {{text}} [START OF TEXT] [END OF TEXT]').map((i) => i.code)).toEqual([
      'ner.prompt_text_placeholder',
    ]);
    expect(nerPromptIssues('items entity type relationships from relationship to [START OF TEXT] {{text}} [END OF TEXT]')).toEqual([]);
  });
});
