// SPDX-License-Identifier: MIT
// labs/stock/stubs.c - the starting point of the per-CPU stock lab
// (docs/labs/stock.md). `make lab-start LAB=stock` puts each block below
// in place of the body of the function named above it. With these stubs
// nothing is ever kept in a stock: every surplus goes straight back.

//@ mm/memcg/stock.h: __stock_take
{
	/* LAB stock: take nr_pages from this CPU's stock if it holds that
	 * many of the kind asked for, for this domain. */
	return false;
}

//@ mm/memcg/stock.c: drain_stock
{
	/* LAB stock: give the stock's pages back to its domain's counters
	 * (uncharge_counters) and empty it. This only forgets the domain. */
	stock->cached = NULL;
}

//@ mm/memcg/stock.c: refill_stock
{
	/* LAB stock: keep the surplus in this CPU's stock (draining another
	 * domain's first); a dying domain's goes back at once. This gives
	 * every surplus back at once. */
	uncharge_counters(memcg, kmem ? 0 : nr_pages, kmem ? nr_pages : 0);
}
