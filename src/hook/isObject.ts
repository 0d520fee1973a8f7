// The one check the hook side makes of every JSON value it reads: a plain object, not null or an array.
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
