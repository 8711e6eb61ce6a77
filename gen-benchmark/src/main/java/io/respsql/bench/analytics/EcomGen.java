package io.respsql.bench.analytics;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seed 004's e-commerce data set (customers, products, orders, order_items with every column the
 * 31 queries use), the same for a given seed on every run, held in primitive columns so that
 * scale factor 1 (500,000 customers, 100,000 products, 3,000,000 orders, about 7.5M order items)
 * fits in a few hundred MB and can be streamed to each system in turn.
 *
 * <p>Foreign keys are consistent; customers whose id is a multiple of 9 have no orders; order
 * timestamps spread uniformly over 2021-2025 with {@code order_ym} (yyyymm) materialised;
 * {@code order_items.customer_id} is its order's; an order's total is the sum of its lines
 * ({@code quantity * price_cents}). Text values hold no comma, quote, tab or backslash, so they
 * need no escaping in any load format. Ids are 1..n in every table (order items numbered in order).
 *
 * <p>The test suite's {@code EcomData} (Seed004Test, at 2,000 / 200 / 8,000) is built from this
 * class: one generator, one sequence of random draws, the same rows in the test and the bench.
 */
public final class EcomGen {
    public static final String[] COUNTRIES = {"US", "IN", "GB", "DE", "FR", "BR", "JP", "CA", "AU", "MX"};
    public static final String[] TIERS = {"bronze", "silver", "gold", "platinum"};
    public static final String[] CATEGORIES = {"books", "electronics", "garden", "grocery", "home", "kitchen",
            "music", "office", "outdoor", "sports", "toys", "beauty"};
    public static final String[] STATUSES = {"pending", "paid", "shipped", "delivered", "returned", "cancelled"};
    static final int[] STATUS_WEIGHTS = {5, 15, 15, 50, 8, 7};
    public static final String[] CHANNELS = {"web", "app", "store", "phone"};
    /** 2021-01-01 00:00:00 UTC and 2026-01-01 00:00:00 UTC, epoch seconds. */
    static final long FROM = 1_609_459_200L;
    static final long TO = 1_767_225_600L;

    /** Scale factor 1: one tenth of the seed's 100M-row data set. */
    public static final int SF1_CUSTOMERS = 500_000;
    public static final int SF1_PRODUCTS = 100_000;
    public static final int SF1_ORDERS = 3_000_000;

    /** Secondary indexes of the seed's workload: name, table, column (each table's first column is its primary key). */
    public static final List<String[]> INDEXES = List.of(
            new String[] {"orders_customer_id", "orders", "customer_id"},
            new String[] {"orders_order_ym", "orders", "order_ym"},
            new String[] {"orders_order_ts", "orders", "order_ts"},
            new String[] {"order_items_order_id", "order_items", "order_id"},
            new String[] {"order_items_customer_id", "order_items", "customer_id"},
            new String[] {"order_items_product_id", "order_items", "product_id"});

    public final long seed;
    public final int customers;
    public final int products;
    public final int orders;
    public final int items;

    // customers (index id - 1)
    public final byte[] cCountry;
    public final byte[] cTier;
    public final int[] cLtv;
    // products (index id - 1)
    public final byte[] pCategory;
    public final int[] pPrice;
    // orders (index id - 1)
    public final int[] oCustomer;
    public final long[] oTs;
    public final int[] oYm;
    public final byte[] oStatus;
    public final byte[] oChannel;
    public final long[] oTotal;
    // order items (index id - 1)
    public final int[] iOrder;
    public final int[] iProduct;
    public final byte[] iQty;

    public EcomGen(long seed, int customers, int products, int orders) {
        if (customers < 9 || products < 1 || orders < 1) {
            throw new IllegalArgumentException("need at least 9 customers, 1 product and 1 order");
        }
        this.seed = seed;
        this.customers = customers;
        this.products = products;
        this.orders = orders;
        Random rnd = new Random(seed);
        cCountry = new byte[customers];
        cTier = new byte[customers];
        cLtv = new int[customers];
        for (int i = 0; i < customers; i++) {
            cCountry[i] = (byte) rnd.nextInt(COUNTRIES.length);
            cTier[i] = (byte) skewed(rnd, TIERS.length);
            cLtv[i] = rnd.nextInt(5_000_000);
        }
        pCategory = new byte[products];
        pPrice = new int[products];
        for (int i = 0; i < products; i++) {
            pPrice[i] = 199 + rnd.nextInt(20_000);
            pCategory[i] = (byte) rnd.nextInt(CATEGORIES.length);
        }
        int[] buyers = new int[customers];
        int nb = 0;
        for (int id = 1; id <= customers; id++) {
            if (id % 9 != 0) {
                buyers[nb++] = id;
            }
        }
        oCustomer = new int[orders];
        oTs = new long[orders];
        oYm = new int[orders];
        oStatus = new byte[orders];
        oChannel = new byte[orders];
        oTotal = new long[orders];
        int[] itOrder = new int[orders * 4];
        int[] itProduct = new int[orders * 4];
        byte[] itQty = new byte[orders * 4];
        int n = 0;
        for (int i = 0; i < orders; i++) {
            int customer = buyers[rnd.nextInt(nb)];
            long ts = FROM + (long) (rnd.nextDouble() * (TO - FROM));
            int lines = 1 + rnd.nextInt(4);
            long total = 0;
            for (int l = 0; l < lines; l++) {
                int product = 1 + rnd.nextInt(products);
                int quantity = 1 + rnd.nextInt(5);
                total += (long) quantity * pPrice[product - 1];
                itOrder[n] = i + 1;
                itProduct[n] = product;
                itQty[n] = (byte) quantity;
                n++;
            }
            oCustomer[i] = customer;
            oTs[i] = ts;
            oYm[i] = yearMonth(ts);
            oStatus[i] = (byte) weighted(rnd, STATUS_WEIGHTS);
            oChannel[i] = (byte) rnd.nextInt(CHANNELS.length);
            oTotal[i] = total;
        }
        items = n;
        iOrder = Arrays.copyOf(itOrder, n);
        iProduct = Arrays.copyOf(itProduct, n);
        iQty = Arrays.copyOf(itQty, n);
    }

    /** The data set at scale factor {@code sf} (SF 1: 500,000 / 100,000 / 3,000,000). */
    public static EcomGen atScale(long seed, double sf) {
        if (!(sf > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + sf);
        }
        return new EcomGen(seed, Math.max(9, (int) Math.round(SF1_CUSTOMERS * sf)),
                Math.max(1, (int) Math.round(SF1_PRODUCTS * sf)), Math.max(1, (int) Math.round(SF1_ORDERS * sf)));
    }

    public long totalRows() {
        return (long) customers + products + orders + items;
    }

    // ---- derived values, computed the same way for every system ----

    public static String email(int customerId) {
        return "user" + customerId + "@mail" + (customerId % 20) + ".example";
    }

    public static String productName(int productId) {
        return "Product " + productId + " " + CATEGORIES[productId % CATEGORIES.length];
    }

    public int itemCustomer(int itemIndex) {
        return oCustomer[iOrder[itemIndex] - 1];
    }

    public long itemLineTotal(int itemIndex) {
        return (long) iQty[itemIndex] * pPrice[iProduct[itemIndex] - 1];
    }

    /** {@code yyyy-mm-dd hh:mm:ss} of an epoch second (UTC). */
    public static String timestamp(long epochSecond) {
        StringBuilder sb = new StringBuilder(19);
        appendTimestamp(sb, epochSecond);
        return sb.toString();
    }

    /** Appends {@code yyyy-mm-dd hh:mm:ss} without allocating (the load formats millions of them). */
    public static void appendTimestamp(StringBuilder sb, long epochSecond) {
        long days = Math.floorDiv(epochSecond, 86_400L);
        int secs = (int) Math.floorMod(epochSecond, 86_400L);
        long ymd = civil(days);
        int y = (int) (ymd / 10_000);
        int m = (int) (ymd / 100 % 100);
        int d = (int) (ymd % 100);
        sb.append(y).append('-');
        two(sb, m);
        sb.append('-');
        two(sb, d);
        sb.append(' ');
        two(sb, secs / 3600);
        sb.append(':');
        two(sb, secs / 60 % 60);
        sb.append(':');
        two(sb, secs % 60);
    }

    static int yearMonth(long epochSecond) {
        return (int) (civil(Math.floorDiv(epochSecond, 86_400L)) / 100);
    }

    private static void two(StringBuilder sb, int v) {
        sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** Days since 1970-01-01 to yyyymmdd (H. Hinnant's civil_from_days). */
    static long civil(long z) {
        z += 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) {
            y++;
        }
        return y * 10_000 + m * 100 + d;
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
