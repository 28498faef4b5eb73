import { checkFeed } from './checkFeed';
import type { GtfsFeed } from './gtfsFeed';
import { NoticeLog } from './noticeLog';
import { emptyFeed, readFeed, type ReadCounts } from './readFeed';
import { ZipFeed } from './zipFeed';

export interface InspectedFeed {
  feed: GtfsFeed;
  counts: ReadCounts;
  notices: NoticeLog;
}

/**
 * Reads a GTFS zip and checks it: the validation on the way in, and of an export on the way out. A file that is
 * not a zip is an error notice of an empty feed.
 */
export async function inspectFeed(path: string): Promise<InspectedFeed> {
  const notices = new NoticeLog();
  let zip: ZipFeed;
  try {
    zip = await ZipFeed.open(path);
  } catch (error) {
    notices.add('invalid_zip_file', { value: error instanceof Error ? error.message.slice(0, 120) : undefined });
    return { feed: emptyFeed(), counts: {}, notices };
  }
  try {
    const { feed, counts } = await readFeed(zip, notices);
    checkFeed(feed, notices);
    return { feed, counts, notices };
  } finally {
    zip.close();
  }
}
