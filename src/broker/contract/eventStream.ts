// Reading a Server-Sent Events body, as MCP's Streamable HTTP sends it: the endpoint folds a stream
// into one JSON response, the hook command reads the answer to its call. Node builtins only.

/** The JSON messages in the `data:` lines of an event stream; comments and other fields skipped. */
export function eventStreamMessages(text: string): unknown[] {
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (!data) continue;
    try {
      messages.push(JSON.parse(data));
    } catch {
      // a keep-alive or a comment, not a message
    }
  }
  return messages;
}
