export function timeLeftMs(): number;
