package io.respsql.it.conformance;

import io.respsql.bench.analytics.EcomGen;

import java.util.ArrayList;
import java.util.List;

/**
 * A small e-commerce data set of seed 004's shape, the same for a given seed on every run, as
 * rows of Java values: the rows of {@link EcomGen} (gen-benchmark's generator, which
 * {@code scripts/analytics-bench.sh} loads at any scale factor), so the test and the bench use
 * one data set. Foreign keys are consistent (PostgreSQL checks them); customers whose id is a
 * multiple of 9 have no orders; order timestamps spread over 2021-2025 with {@code order_ym}
 * (yyyymm) materialised; {@code order_items.customer_id} is denormalised from its order; an
 * order's total is the sum of its lines. Text values hold no comma (today's SELECT reply cannot
 * carry one).
 */
final class EcomData {
    static final String[] COUNTRIES = EcomGen.COUNTRIES;
    static final String[] TIERS = EcomGen.TIERS;
    static final String[] CATEGORIES = EcomGen.CATEGORIES;
    static final String[] STATUSES = EcomGen.STATUSES;
    static final String[] CHANNELS = EcomGen.CHANNELS;

    /** One table: its name, columns with standard SQL types, and rows (Integer/Long/String values). */
    record Table(String name, List<String> columns, List<String> types, String references, List<Object[]> rows) {
    }

    final List<Table> tables = new ArrayList<>();

    EcomData(long seed, int customers, int products, int orders) {
        EcomGen g = new EcomGen(seed, customers, products, orders);
        List<Object[]> c = new ArrayList<>(customers);
        for (int i = 0; i < customers; i++) {
            c.add(new Object[] {i + 1, EcomGen.email(i + 1), COUNTRIES[g.cCountry[i]], TIERS[g.cTier[i]], (long) g.cLtv[i]});
        }
        tables.add(new Table("customers", List.of("customer_id", "email", "country", "tier", "lifetime_value_cents"),
                List.of("INT", "TEXT", "TEXT", "TEXT", "BIGINT"), "", c));

        List<Object[]> p = new ArrayList<>(products);
        for (int i = 0; i < products; i++) {
            p.add(new Object[] {i + 1, EcomGen.productName(i + 1), CATEGORIES[g.pCategory[i]], g.pPrice[i]});
        }
        tables.add(new Table("products", List.of("product_id", "name", "category", "price_cents"),
                List.of("INT", "TEXT", "TEXT", "INT"), "", p));

        List<Object[]> o = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++) {
            o.add(new Object[] {i + 1, g.oCustomer[i], EcomGen.timestamp(g.oTs[i]), g.oYm[i],
                    STATUSES[g.oStatus[i]], CHANNELS[g.oChannel[i]], g.oTotal[i]});
        }
        List<Object[]> items = new ArrayList<>(g.items);
        for (int i = 0; i < g.items; i++) {
            items.add(new Object[] {i + 1, g.iOrder[i], g.itemCustomer(i), g.iProduct[i], (int) g.iQty[i], g.itemLineTotal(i)});
        }
        tables.add(new Table("orders", List.of("order_id", "customer_id", "order_ts", "order_ym", "status", "channel", "total_cents"),
                List.of("INT", "INT", "TIMESTAMP", "INT", "TEXT", "TEXT", "BIGINT"),
                "customer_id REFERENCES customers", o));
        tables.add(new Table("order_items", List.of("order_item_id", "order_id", "customer_id", "product_id", "quantity", "line_total_cents"),
                List.of("INT", "INT", "INT", "INT", "INT", "BIGINT"),
                "order_id REFERENCES orders, customer_id REFERENCES customers, product_id REFERENCES products", items));
    }

    /** Secondary indexes of the seed's workload (the first column of each table is its primary key). */
    static final List<String[]> INDEXES = EcomGen.INDEXES;

    /**
     * CREATE TABLE and CREATE INDEX statements; {@code typeMap} maps a standard type to the
     * spelling used ({@code TIMESTAMP} to {@code TEXT} for a server without timestamps: the
     * values are written the same way, so they compare and print alike), and {@code withForeignKeys}
     * adds REFERENCES constraints.
     */
    List<String> schema(java.util.function.UnaryOperator<String> typeMap, boolean withForeignKeys) {
        List<String> ddl = new ArrayList<>();
        for (Table t : tables) {
            StringBuilder sb = new StringBuilder("CREATE TABLE ").append(t.name()).append(" (");
            for (int i = 0; i < t.columns().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(t.columns().get(i)).append(' ').append(typeMap.apply(t.types().get(i)));
                if (i == 0) {
                    sb.append(" PRIMARY KEY");
                }
                if (withForeignKeys) {
                    for (String ref : t.references().split(", ")) {
                        if (ref.startsWith(t.columns().get(i) + " ")) {
                            sb.append(ref.substring(t.columns().get(i).length()));
                        }
                    }
                }
            }
            ddl.add(sb.append(')').toString());
        }
        for (String[] ix : INDEXES) {
            ddl.add("CREATE INDEX " + ix[0] + " ON " + ix[1] + " (" + ix[2] + ")");
        }
        return ddl;
    }

    /** Multi-row INSERT statements of at most {@code batch} rows, valid in both dialects. */
    List<String> inserts(int batch) {
        List<String> out = new ArrayList<>();
        for (Table t : tables) {
            for (int from = 0; from < t.rows().size(); from += batch) {
                StringBuilder sb = new StringBuilder("INSERT INTO ").append(t.name()).append(" VALUES ");
                for (int r = from; r < Math.min(t.rows().size(), from + batch); r++) {
                    sb.append(r == from ? "(" : ", (");
                    Object[] row = t.rows().get(r);
                    for (int i = 0; i < row.length; i++) {
                        sb.append(i == 0 ? "" : ", ");
                        if (row[i] instanceof String s) {
                            sb.append('\'').append(s.replace("'", "''")).append('\'');
                        } else {
                            sb.append(row[i]);
                        }
                    }
                    sb.append(')');
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    int rows(String table) {
        return tables.stream().filter(t -> t.name().equals(table)).findFirst().orElseThrow().rows().size();
    }
}
