/** Polls `read` until `done` holds and returns that value, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
