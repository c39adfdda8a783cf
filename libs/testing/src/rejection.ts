/** What `work` rejects with, as it came (an error of any realm or shape); fails when it resolves. */
export async function rejectionOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but it resolved');
}
