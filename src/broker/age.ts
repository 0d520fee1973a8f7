/** How long a request has waited, in the unit it is shown in: "just now", "3 min ago", "2 h ago" (the host and the panel word it in the user's language). */
export function ageOf(createdAt: number, now = Date.now()): { unit: 'now' | 'minutes' | 'hours'; count: number } {
  const seconds = Math.max(0, Math.round((now - createdAt) / 1000));
  if (seconds < 45) return { unit: 'now', count: 0 };
  if (seconds < 90) return { unit: 'minutes', count: 1 };
  if (seconds < 3600) return { unit: 'minutes', count: Math.round(seconds / 60) };
  return { unit: 'hours', count: Math.round(seconds / 3600) };
}
