/** Drains one of the client's streaming reads into an array (reads here are bounded by maxCount). */
export async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}
