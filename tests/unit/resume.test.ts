import { describe, expect, it } from 'vitest';
import { HERMES_RESUME_TEMPLATE, resumeCommand, splitTemplate } from '../../src/app/resume.js';

const target = { sessionId: '20260301_120000_ab12cd', profile: 'work' };

describe('resumeCommand', () => {
  it('resumes a Hermes session in its profile with an argv', () => {
    expect(resumeCommand(target)).toEqual({
      ok: true,
      argv: ['hermes', '-p', 'work', '--resume', '20260301_120000_ab12cd'],
      display: 'hermes -p work --resume 20260301_120000_ab12cd',
    });
    expect(HERMES_RESUME_TEMPLATE).toBe('hermes -p {profile} --resume {id}');
  });

  it('names the default profile explicitly, so a sticky active profile cannot win', () => {
    const plan = resumeCommand({ sessionId: 'abc', profile: '' });
    expect(plan.ok && plan.argv).toEqual(['hermes', '-p', 'default', '--resume', 'abc']);
  });

  it('takes a template from LOOKBACK_RESUME before the config, one argument per word', () => {
    const env = {
      LOOKBACK_RESUME: `my-agent --home "/Users/me/Agent Home" resume={id} --in '{cwd}'`,
    };
    const plan = resumeCommand(
      { ...target, cwd: '/tmp/my dir' },
      { env, configTemplate: 'ignored {id}' },
    );
    expect(plan).toEqual({
      ok: true,
      argv: [
        'my-agent',
        '--home',
        '/Users/me/Agent Home',
        'resume=20260301_120000_ab12cd',
        '--in',
        '/tmp/my dir',
      ],
      display: `my-agent --home '/Users/me/Agent Home' resume=20260301_120000_ab12cd --in '/tmp/my dir'`,
    });
    const fromConfig = resumeCommand(target, { env: {}, configTemplate: 'x {id}' });
    expect(fromConfig.ok && fromConfig.argv).toEqual(['x', '20260301_120000_ab12cd']);
  });

  it('never lets a value become several arguments or an option', () => {
    const plan = resumeCommand({ sessionId: 'a b; rm -rf ~', profile: 'work' });
    expect(plan.ok && plan.argv.at(-1)).toBe('a b; rm -rf ~');
    expect(resumeCommand({ sessionId: '--help', profile: 'work' })).toEqual({
      ok: false,
      error: 'cannot resume: session id --help would read as an option',
    });
    expect(resumeCommand({ sessionId: 'a\u001b]52;c;x\u0007', profile: 'work' }).ok).toBe(false);
    expect(resumeCommand({ sessionId: 'latest', profile: 'work' }).ok).toBe(false);
  });

  it('says what is wrong in one line', () => {
    expect(resumeCommand({ ...target, profile: 'Work Stuff' })).toEqual({
      ok: false,
      error: 'cannot resume: hermes does not accept the profile name Work Stuff',
    });
    expect(resumeCommand(target, { env: { LOOKBACK_RESUME: 'x {session}' } })).toEqual({
      ok: false,
      error: 'LOOKBACK_RESUME: unknown placeholder {session} (use {id}, {profile}, {cwd})',
    });
    expect(resumeCommand(target, { env: { LOOKBACK_RESUME: 'x --in {cwd}' } })).toEqual({
      ok: false,
      error: 'cannot resume: this session has no cwd for {cwd}',
    });
    expect(resumeCommand(target, { env: { LOOKBACK_RESUME: 'x "unclosed' } })).toEqual({
      ok: false,
      error: 'LOOKBACK_RESUME: unclosed " quote',
    });
  });

  it("resumes another agent's conversation with that agent's own command, in its directory", () => {
    const cl = {
      sessionId: '5f0c1111-2222-4333-8444-555566667777',
      profile: 'work',
      agent: 'claude',
    };
    expect(resumeCommand({ ...cl, cwd: '/home/ana/shop' })).toEqual({
      ok: true,
      argv: ['claude', '--resume', cl.sessionId],
      display: `claude --resume ${cl.sessionId}`,
      cwd: '/home/ana/shop',
    });
    // LOOKBACK_RESUME is a Hermes template ({profile}); it never replaces another agent's command.
    const env = { LOOKBACK_RESUME: 'hermes -p {profile} --resume {id}' };
    expect(resumeCommand({ ...cl, agent: 'codex', cwd: null }, { env })).toEqual({
      ok: true,
      argv: ['codex', 'resume', cl.sessionId],
      display: `codex resume ${cl.sessionId}`,
    });
    const g = resumeCommand({ ...cl, agent: 'gemini' });
    expect(g.ok && g.argv).toEqual(['gemini', '--resume', cl.sessionId]);
    const o = resumeCommand({ ...cl, agent: 'opencode', sessionId: 'ses_abc' });
    expect(o.ok && o.argv).toEqual(['opencode', '--session', 'ses_abc']);
    expect(resumeCommand({ ...cl, agent: 'praisonai' })).toEqual({
      ok: false,
      error: 'no resume command known for praisonai',
    });
    expect(resumeCommand({ ...cl, sessionId: '--help' }).ok).toBe(false);
  });
});

describe('splitTemplate', () => {
  it('splits on spaces outside quotes and keeps empty quoted words', () => {
    expect(splitTemplate(`a  'b c' "d'e" f""`)).toEqual({
      ok: true,
      words: ['a', 'b c', "d'e", 'f'],
    });
    expect(splitTemplate(`a ''`)).toEqual({ ok: true, words: ['a', ''] });
    expect(splitTemplate('   ')).toEqual({ ok: false, error: 'LOOKBACK_RESUME is empty' });
  });
});
