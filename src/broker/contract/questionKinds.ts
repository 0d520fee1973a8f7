// What each question kind means, in one table. A kind added to QUESTION_KINDS (schemas.ts) fails the
// build here until its row is filled in, and at every exhaustive `switch` on the kind
// (docs/adding-a-question-kind.md lists them): no place silently treats a new kind as another one.
import type { QuestionKind } from './schemas';

interface KindTraits {
  /** The answer picks from `options`: 'one' of them, or 'any' number. Undefined: the kind takes no options (nor allowOther). */
  picks: 'one' | 'any' | undefined;
  /**
   * A credential: typed into a masked field, stored in SecretStorage and returned only as a handle
   * (`envVar` required); never answered from the answers file, never in a nudge, no note, no images.
   */
  secret: boolean;
  /** What the model is told the kind is, in ask_user's schema: "'single' (pick one option)". */
  means: string;
  /** The end of "use "single" for one choice", in the error for a kind that does not exist. */
  useFor: string;
}

const KINDS: Record<QuestionKind, KindTraits> = {
  single: { picks: 'one', secret: false, means: 'pick one option', useFor: 'one choice' },
  multi: { picks: 'any', secret: false, means: 'pick any', useFor: 'several' },
  text: { picks: undefined, secret: false, means: 'free text', useFor: 'free text' },
  secret: { picks: undefined, secret: true, means: 'a credential typed into a masked field; you get only a handle', useFor: 'a credential' },
};

export const kindTraits = (kind: QuestionKind): Readonly<KindTraits> => KINDS[kind];

/** Single or multi: the question has options to choose from. */
export const isChoiceKind = (kind: QuestionKind): boolean => KINDS[kind].picks !== undefined;

export const isSecretKind = (kind: QuestionKind): boolean => KINDS[kind].secret;

/** The `default:` of a switch on a question kind: a kind without its `case` does not compile here. */
export function unhandledKind(kind: never): never {
  throw new Error(`unhandled question kind ${JSON.stringify(kind)}`);
}
