/**
 * Polls `check` until it holds (a check that throws counts as not yet);
 * resolves true, or rejects naming `what` after `ms`.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000, everyMs = 50): Promise<true> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
