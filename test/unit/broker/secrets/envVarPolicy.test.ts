import * as assert from 'node:assert/strict';
import { parseApiAskRequest, parseAskUserInput } from '../../../../src/broker/questions/askUserInput';
import { callAskUser } from '../../../../src/broker/questions/askUserCall';
import { DENIED_ENV_VAR_PREFIXES, RESERVED_ENV_VAR_PREFIX, envVarNeedsConfirmation, envVarRefusal, isCredentialName } from '../../../../src/broker/secrets/envVarPolicy';
import { CREDENTIAL_NAMES, NOT_CREDENTIAL_NAMES } from '../../helpers/envVarNames';
import { makeBroker, makePolicy } from '../../helpers/fakes';

const secret = (envVar: string) => ({ questions: [{ id: 'key', header: 'Key', question: 'Your key?', kind: 'secret', envVar }] });
const messageOf = (parsed: { ok: boolean }) => (parsed as { message?: string }).message;

suite('secret variable names', () => {
  test('prevents a secret from taking a name that changes how programs run (tool, MCP, API)', async () => {
    const names = [
      'PATH',
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'DYLD_INSERT_LIBRARIES',
      'NODE_OPTIONS',
      'BASH_ENV',
      'ENV',
      'PROMPT_COMMAND',
      'GIT_SSH_COMMAND',
      'PYTHONPATH',
      'PYTHONSTARTUP',
      'JAVA_TOOL_OPTIONS',
      'HOME',
      'SHELL',
      'AGENT_QUESTIONS_MCP_TOKEN',
    ];
    for (const name of names) {
      const tool = messageOf(parseAskUserInput(secret(name)));
      assert.ok(tool?.startsWith('ask_user input is invalid; nothing was asked. Fix 1 problem'), `${name} is refused by ask_user: ${tool}`);
      assert.match(tool!, new RegExp(`- questions\\[0\\]\\.envVar: "${name}" `));
      assert.match(messageOf(parseApiAskRequest({ extensionId: 'a.b', ...secret(name) })) ?? '', /questions\[0\]\.envVar: /, `${name} is refused by the API`);
      // The MCP ask_user and the language-model tool share callAskUser: nothing is queued.
      const { broker } = makeBroker();
      const result = await callAskUser(secret(name), { broker, policy: makePolicy(), source: { type: 'mcp', label: 'Claude Code' } });
      assert.equal(result.response, undefined);
      assert.equal(broker.size, 0);
    }
  });

  test('the refusal names the field and the fix, in a fixed text', () => {
    assert.equal(
      messageOf(parseAskUserInput(secret('PATH'))),
      'ask_user input is invalid; nothing was asked. Fix 1 problem and call ask_user again:\n- questions[0].envVar: "PATH" changes how programs run and cannot hold a secret; use a name of your own such as "MYAPP_API_KEY"',
    );
    assert.equal(
      messageOf(parseAskUserInput(secret('AGENT_QUESTIONS_UNATTENDED'))),
      'ask_user input is invalid; nothing was asked. Fix 1 problem and call ask_user again:\n- questions[0].envVar: "AGENT_QUESTIONS_UNATTENDED" is reserved for Agent Questions itself; use a name of your own such as "MYAPP_API_KEY"',
    );
  });

  test('ordinary names are still accepted', () => {
    for (const name of ['STRIPE_TEST_KEY', 'OPENAI_API_KEY', 'PATH_TO_NOTHING_KEY', 'MY_HOME_TOKEN', 'AGENT_QUESTIONS', 'LDAP_PASSWORD'])
      assert.equal(parseAskUserInput(secret(name)).ok, true, name);
  });

  test('the documented list holds what the README promises', () => {
    for (const name of [
      'PATH',
      'HOME',
      'SHELL',
      'ENV',
      'BASH_ENV',
      'PROMPT_COMMAND',
      'PS1',
      'PS4',
      'IFS',
      'ZDOTDIR',
      'NODE_OPTIONS',
      'NODE_PATH',
      'GIT_SSH_COMMAND',
      'GIT_SSH',
      'GIT_EXEC_PATH',
      'GIT_CONFIG_GLOBAL',
      'GIT_EDITOR',
      'EDITOR',
      'VISUAL',
      'PAGER',
      'PYTHONPATH',
      'PYTHONSTARTUP',
      'PYTHONHOME',
      'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS',
      'JDK_JAVA_OPTIONS',
      'PERL5LIB',
      'PERL5OPT',
      'RUBYOPT',
      'RUBYLIB',
      'TMPDIR',
      'SSH_AUTH_SOCK',
    ]) {
      assert.match(envVarRefusal(name) ?? '', /changes how programs run/, name);
    }
    assert.deepEqual([...DENIED_ENV_VAR_PREFIXES].slice(0, 2), ['LD_', 'DYLD_']);
    assert.equal(RESERVED_ENV_VAR_PREFIX, 'AGENT_QUESTIONS_');
  });

  test('prevents a name that is not a credential from being accepted silently: each of 42 names that change what programs run, load or trust needs confirmation or is refused', () => {
    assert.equal(NOT_CREDENTIAL_NAMES.length, 42);
    const silent = NOT_CREDENTIAL_NAMES.filter((name) => envVarRefusal(name) === undefined && !envVarNeedsConfirmation(name));
    assert.deepEqual(silent, []);
    // The ask is still made: the panel shows the warning, and the user decides.
    for (const name of NOT_CREDENTIAL_NAMES) assert.equal(parseAskUserInput(secret(name)).ok, true, name);
  });

  test('credential names (…_KEY, …_TOKEN, …_SECRET, …_PASSWORD, …_PAT, …_DSN, a connection …_URL) are accepted without confirmation; denied names stay refused', () => {
    for (const name of CREDENTIAL_NAMES) {
      assert.equal(isCredentialName(name), true, name);
      assert.equal(envVarNeedsConfirmation(name), false, name);
    }
    // A URL that says where programs fetch packages or send requests changes trust: confirmed like any other name.
    for (const name of ['PIP_INDEX_URL', 'OPENAI_BASE_URL', 'AWS_ENDPOINT_URL', 'GITHUB_API_URL', 'PUPPETEER_DOWNLOAD_BASE_URL', 'MY_PROXY_URL'])
      assert.equal(envVarNeedsConfirmation(name), true, name);
    // Not a credential name just for containing one: the suffix is a whole last word.
    for (const name of ['KEY', '_KEY', 'MONKEY', 'AUTHTOKEN', 'PASSWORD_FILE', 'TOKENS', 'AGENT_QUESTIONS']) assert.equal(isCredentialName(name), false, name);
    // Denied is never "needs confirmation": the panel cannot override a refusal.
    for (const name of ['PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'NPM_CONFIG_REGISTRY', 'GIT_CONFIG_GLOBAL', 'AGENT_QUESTIONS_MCP_TOKEN']) {
      assert.notEqual(envVarRefusal(name), undefined, name);
      assert.equal(envVarNeedsConfirmation(name), false, name);
    }
  });
});
