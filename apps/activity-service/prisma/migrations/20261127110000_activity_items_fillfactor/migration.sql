-- An activity item is written when its resource is created and updated at each status after
-- (a rebalance twice, a withdrawal more), but its pages were filled to the brim by the items
-- created after it, so 29 to 54 % of those updates could not stay on the page (the wallet bench,
-- issue 17): each wrote an entry into the table's three indexes, and the feed's first page, over
-- the newest items, read through the dead ones. Pages now keep 30 % free for the next versions of
-- their items, so the updates are HOT (pages written from now on).
-- (No semicolons in comments: Prisma's engine splits a migration's statements on them.)
ALTER TABLE "activity_items" SET (fillfactor = 70);
