package io.respsql.it.conformance;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small e-commerce data set of seed 004's shape, the same for a given seed on every run:
 * customers, products, orders, order_items with every column the seed's queries use. Foreign
 * keys are consistent (PostgreSQL checks them); customers whose id is a multiple of 9 have no
 * orders; order timestamps spread over 2021-2025 with {@code order_ym} (yyyymm) materialised;
 * {@code order_items.customer_id} is denormalised from its order; an order's total is the sum
 * of its lines. Text values hold no comma (today's SELECT reply cannot carry one).
 */
final class EcomData {
    static final String[] COUNTRIES = {"US", "IN", "GB", "DE", "FR", "BR", "JP", "CA", "AU", "MX"};
    static final String[] TIERS = {"bronze", "silver", "gold", "platinum"};
    static final String[] CATEGORIES = {"books", "electronics", "garden", "grocery", "home", "kitchen",
            "music", "office", "outdoor", "sports", "toys", "beauty"};
    static final String[] STATUSES = {"pending", "paid", "shipped", "delivered", "returned", "cancelled"};
    static final int[] STATUS_WEIGHTS = {5, 15, 15, 50, 8, 7};
    static final String[] CHANNELS = {"web", "app", "store", "phone"};
    static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** One table: its name, columns with standard SQL types, and rows (Integer/Long/String values). */
    record Table(String name, List<String> columns, List<String> types, String references, List<Object[]> rows) {
    }

    final List<Table> tables = new ArrayList<>();

    EcomData(long seed, int customers, int products, int orders) {
        Random rnd = new Random(seed);
        List<Object[]> c = new ArrayList<>();
        for (int id = 1; id <= customers; id++) {
            c.add(new Object[] {id, "user" + id + "@mail" + (id % 20) + ".example", COUNTRIES[rnd.nextInt(COUNTRIES.length)],
                    TIERS[skewed(rnd, TIERS.length)], (long) rnd.nextInt(5_000_000)});
        }
        tables.add(new Table("customers", List.of("customer_id", "email", "country", "tier", "lifetime_value_cents"),
                List.of("INT", "TEXT", "TEXT", "TEXT", "BIGINT"), "", c));

        List<Object[]> p = new ArrayList<>();
        int[] price = new int[products + 1];
        for (int id = 1; id <= products; id++) {
            price[id] = 199 + rnd.nextInt(20_000);
            p.add(new Object[] {id, "Product " + id + " " + CATEGORIES[id % CATEGORIES.length], CATEGORIES[rnd.nextInt(CATEGORIES.length)], price[id]});
        }
        tables.add(new Table("products", List.of("product_id", "name", "category", "price_cents"),
                List.of("INT", "TEXT", "TEXT", "INT"), "", p));

        List<Integer> buyers = new ArrayList<>();
        for (int id = 1; id <= customers; id++) {
            if (id % 9 != 0) {
                buyers.add(id);
            }
        }
        long from = LocalDateTime.of(2021, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long to = LocalDateTime.of(2026, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        List<Object[]> o = new ArrayList<>();
        List<Object[]> items = new ArrayList<>();
        int itemId = 0;
        for (int id = 1; id <= orders; id++) {
            int customer = buyers.get(rnd.nextInt(buyers.size()));
            LocalDateTime ts = LocalDateTime.ofEpochSecond(from + (long) (rnd.nextDouble() * (to - from)), 0, ZoneOffset.UTC);
            int lines = 1 + rnd.nextInt(4);
            long total = 0;
            for (int l = 0; l < lines; l++) {
                int product = 1 + rnd.nextInt(products);
                int quantity = 1 + rnd.nextInt(5);
                long lineTotal = (long) quantity * price[product];
                total += lineTotal;
                items.add(new Object[] {++itemId, id, customer, product, quantity, lineTotal});
            }
            o.add(new Object[] {id, customer, ts.format(TS), ts.getYear() * 100 + ts.getMonthValue(),
                    STATUSES[weighted(rnd, STATUS_WEIGHTS)], CHANNELS[rnd.nextInt(CHANNELS.length)], total});
        }
        tables.add(new Table("orders", List.of("order_id", "customer_id", "order_ts", "order_ym", "status", "channel", "total_cents"),
                List.of("INT", "INT", "TIMESTAMP", "INT", "TEXT", "TEXT", "BIGINT"),
                "customer_id REFERENCES customers", o));
        tables.add(new Table("order_items", List.of("order_item_id", "order_id", "customer_id", "product_id", "quantity", "line_total_cents"),
                List.of("INT", "INT", "INT", "INT", "INT", "BIGINT"),
                "order_id REFERENCES orders, customer_id REFERENCES customers, product_id REFERENCES products", items));
    }

    /** Secondary indexes of the seed's workload (the first column of each table is its primary key). */
    static final List<String[]> INDEXES = List.of(
            new String[] {"orders_customer_id", "orders", "customer_id"},
            new String[] {"orders_order_ym", "orders", "order_ym"},
            new String[] {"orders_order_ts", "orders", "order_ts"},
            new String[] {"order_items_order_id", "order_items", "order_id"},
            new String[] {"order_items_customer_id", "order_items", "customer_id"},
            new String[] {"order_items_product_id", "order_items", "product_id"});

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

    /** Mostly the lower tiers. */
    private static int skewed(Random rnd, int n) {
        return Math.min(n - 1, (int) Math.floor(-Math.log(1 - rnd.nextDouble()) * 1.2));
    }

    private static int weighted(Random rnd, int[] weights) {
        int sum = 0;
        for (int w : weights) {
            sum += w;
        }
        int x = rnd.nextInt(sum);
        for (int i = 0; i < weights.length; i++) {
            x -= weights[i];
            if (x < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }
}
