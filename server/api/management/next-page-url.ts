import type { Request } from 'express';

/** The URL of the next page: the same query with the new cursor; the function key is never echoed into a header. */
export function nextPageUrl(req: Request, cursor: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (key !== 'code' && key !== 'cursor' && typeof value === 'string') params.append(key, value);
  }
  params.append('cursor', cursor);
  return `${req.baseUrl}${req.path}?${params.toString()}`;
}
