import { checkFeed } from './checkFeed';
import type { GtfsFeed } from './gtfsFeed';
import { NoticeLog } from './noticeLog';
import { readFeed, type ReadCounts } from './readFeed';
import { ZipFeed } from './zipFeed';

export interface InspectedFeed {
  feed: GtfsFeed;
  counts: ReadCounts;
  notices: NoticeLog;
}

/** Reads a GTFS zip and checks it: the validation on the way in, and of an export on the way out. */
export async function inspectFeed(path: string): Promise<InspectedFeed> {
  const notices = new NoticeLog();
  const zip = await ZipFeed.open(path);
  try {
    const { feed, counts } = await readFeed(zip, notices);
    checkFeed(feed, notices);
    return { feed, counts, notices };
  } finally {
    zip.close();
  }
}
