// The exported API (api.ts) is written by hand so that extensions can copy it without zod; this
// file holds it to the zod contract (schemas.ts): a field added, removed or retyped on one side and
// not the other fails `npm run typecheck` here, naming the pair. Types only: nothing runs or ships.
import type * as z from 'zod';
import type * as Api from './api';
import type * as Contract from '../broker/contract/schemas';
import type { BrokerChange } from '../broker/broker';

/** True only when A and B are the same type: not merely assignable, so an optional field counts too. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Flat<T> = { [K in keyof T]: T[K] };

// The one known difference: api.ts's rememberOptions have no `value` (the rule in VS Code's
// auto-approve shape), which list() and onDidChange deliver all the same. The checks take exactly
// that field out; when one side changes, use the contract's types directly.
type ApiRememberOption = Flat<Omit<Contract.RememberOption, 'value'>>;
type ApiPermissionRequest = Flat<Omit<Contract.PermissionRequest, 'rememberOptions'> & { rememberOptions?: ApiRememberOption[] }>;
type AsApi<R> = R extends Contract.PermissionRequest ? ApiPermissionRequest : R;
// The API's 'settled' change leaves out `decidedBy` (apiImpl.ts strips it): history() carries it.
type ApiChangeOf<C> = C extends { request: Contract.PendingRequest } ? Flat<Omit<C, 'request' | 'decidedBy'> & { request: AsApi<C['request']> }> : never;

export type ApiMatchesSchemas = [
  Assert<Equal<Api.QuestionKind, Contract.QuestionKind>>,
  Assert<Equal<Api.ResponseStatus, Contract.ResponseStatus>>,
  Assert<Equal<Api.PermissionDecision, Contract.PermissionDecision>>,
  Assert<Equal<Api.QuestionOption, Contract.QuestionOption>>,
  Assert<Equal<Api.Question, Contract.Question>>,
  Assert<Equal<Api.RequestSource, Contract.RequestSource>>,
  Assert<Equal<Api.QuestionRequest, Contract.QuestionRequest>>,
  Assert<Equal<NonNullable<Api.PermissionRequest['toolCall']>, Contract.ToolCall>>,
  Assert<Equal<Api.PermissionRequest, ApiPermissionRequest>>,
  Assert<Equal<Api.PendingRequest, AsApi<Contract.PendingRequest>>>,
  Assert<Equal<Api.Answer, Contract.Answer>>,
  Assert<Equal<Api.Answers, Contract.Answers>>,
  Assert<Equal<Api.QuestionResponse, Contract.QuestionResponse>>,
  Assert<Equal<Api.PermissionResponse, Contract.PermissionResponse>>,
  Assert<Equal<NonNullable<Api.PermissionResponse['scope']>, Contract.RuleScope>>,
  Assert<Equal<Api.HistoryEntry, Contract.HistoryEntry>>,
  Assert<Equal<Api.DecidedBy, Contract.DecidedBy>>,
  Assert<Equal<Api.DecidingRule, Contract.DecidingRule>>,
  Assert<Equal<Api.ApiChange, ApiChangeOf<BrokerChange>>>,
  // What callers send: the schemas' input side, which ask() and requestPermission() parse with.
  Assert<Equal<Api.QuestionInput, z.input<typeof Contract.ApiQuestionInputSchema>>>,
  Assert<Equal<Api.AskRequest, z.input<typeof Contract.ApiAskRequestSchema>>>,
  Assert<Equal<Api.PermissionRequestInput, z.input<typeof Contract.ApiPermissionRequestSchema>>>,
];
