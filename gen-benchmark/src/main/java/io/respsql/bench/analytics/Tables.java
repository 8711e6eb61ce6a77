package io.respsql.bench.analytics;

import java.util.ArrayList;
import java.util.List;

/**
 * The four tables' columns and standard types, and each row written as SQL values or as COPY text:
 * one definition of the row layout for every loader.
 */
final class Tables {
    static final String[] NAMES = {"customers", "products", "orders", "order_items"};
    static final String[][] COLUMNS = {
            {"customer_id", "email", "country", "tier", "lifetime_value_cents"},
            {"product_id", "name", "category", "price_cents"},
            {"order_id", "customer_id", "order_ts", "order_ym", "status", "channel", "total_cents"},
            {"order_item_id", "order_id", "customer_id", "product_id", "quantity", "line_total_cents"}};
    static final String[][] TYPES = {
            {"INT", "TEXT", "TEXT", "TEXT", "BIGINT"},
            {"INT", "TEXT", "TEXT", "INT"},
            {"INT", "INT", "TIMESTAMP", "INT", "TEXT", "TEXT", "BIGINT"},
            {"INT", "INT", "INT", "INT", "INT", "BIGINT"}};
    /** Foreign keys: table, column, referenced table. */
    static final String[][] FOREIGN_KEYS = {
            {"orders", "customer_id", "customers"},
            {"order_items", "order_id", "orders"},
            {"order_items", "customer_id", "customers"},
            {"order_items", "product_id", "products"}};

    private Tables() {
    }

    static int rows(EcomGen g, int table) {
        return switch (table) {
            case 0 -> g.customers;
            case 1 -> g.products;
            case 2 -> g.orders;
            default -> g.items;
        };
    }

    /**
     * CREATE TABLE statements; {@code typeMap} maps a standard type to the system's spelling and
     * {@code primaryKey} marks the first column as the key.
     */
    static List<String> createTables(java.util.function.UnaryOperator<String> typeMap, boolean primaryKey) {
        List<String> out = new ArrayList<>();
        for (int t = 0; t < NAMES.length; t++) {
            StringBuilder sb = new StringBuilder("CREATE TABLE ").append(NAMES[t]).append(" (");
            for (int c = 0; c < COLUMNS[t].length; c++) {
                sb.append(c == 0 ? "" : ", ").append(COLUMNS[t][c]).append(' ').append(typeMap.apply(TYPES[t][c]));
                if (c == 0 && primaryKey) {
                    sb.append(" PRIMARY KEY");
                }
            }
            out.add(sb.append(')').toString());
        }
        return out;
    }

    static List<String> createIndexes() {
        List<String> out = new ArrayList<>();
        for (String[] ix : EcomGen.INDEXES) {
            out.add("CREATE INDEX " + ix[0] + " ON " + ix[1] + " (" + ix[2] + ")");
        }
        return out;
    }

    /**
     * Appends row {@code i} of {@code table}: as SQL values {@code (1, 'a', ...)} when
     * {@code sep} is ',' (text quoted), as COPY text (tab-separated, newline-terminated) when it is '\t'.
     */
    static void row(EcomGen g, int table, int i, Ascii a, boolean sql) {
        char sep = sql ? ',' : '\t';
        char q = sql ? '\'' : 0;
        if (sql) {
            a.ch('(');
        }
        switch (table) {
            case 0 -> {
                a.num(i + 1).ch(sep);
                quote(a, q).email(i + 1);
                quote(a, q).ch(sep);
                quote(a, q).str(EcomGen.COUNTRIES[g.cCountry[i]]);
                quote(a, q).ch(sep);
                quote(a, q).str(EcomGen.TIERS[g.cTier[i]]);
                quote(a, q).ch(sep).num(g.cLtv[i]);
            }
            case 1 -> {
                a.num(i + 1).ch(sep);
                quote(a, q).productName(i + 1);
                quote(a, q).ch(sep);
                quote(a, q).str(EcomGen.CATEGORIES[g.pCategory[i]]);
                quote(a, q).ch(sep).num(g.pPrice[i]);
            }
            case 2 -> {
                a.num(i + 1).ch(sep).num(g.oCustomer[i]).ch(sep);
                quote(a, q).ts(g.oTs[i]);
                quote(a, q).ch(sep).num(g.oYm[i]).ch(sep);
                quote(a, q).str(EcomGen.STATUSES[g.oStatus[i]]);
                quote(a, q).ch(sep);
                quote(a, q).str(EcomGen.CHANNELS[g.oChannel[i]]);
                quote(a, q).ch(sep).num(g.oTotal[i]);
            }
            default -> a.num(i + 1).ch(sep).num(g.iOrder[i]).ch(sep).num(g.itemCustomer(i)).ch(sep)
                    .num(g.iProduct[i]).ch(sep).num(g.iQty[i]).ch(sep).num(g.itemLineTotal(i));
        }
        a.ch(sql ? ')' : '\n');
    }

    private static Ascii quote(Ascii a, char q) {
        return q == 0 ? a : a.ch(q);
    }
}
