// The agents whose hooks run the hook command (dist/approvalHook.js), by id: each one's adapter, in
// its own folder. Hook code only: no configuration text reaches the hook bundle from here.
import type { AgentId } from '../broker/contract/agentIds';
import { claudeCodeHook } from './claudeCode/claudeCodeHook';
import { codexHook } from './codex/codexHook';
import type { HookAgent } from './hookAgent';
import { openCodeHook } from './openCode/openCodeHook';

export const HOOK_AGENTS: Readonly<Record<AgentId, HookAgent>> = {
  'claude-code': claudeCodeHook,
  codex: codexHook,
  opencode: openCodeHook,
};
