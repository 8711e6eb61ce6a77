package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INTERVAL, date/time arithmetic and the date/time functions (issue 25) in PostgreSQL's dialect,
 * against PostgreSQL 15 itself: the same table in both, then each statement's rows compared as
 * the 2010 reply writes them (values joined by commas, NULL empty), and each of PostgreSQL's
 * errors matched by one with the same SQLSTATE.
 */
class TimePgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE ev (id int4 PRIMARY KEY, at timestamp, d date, span interval)",
            "INSERT INTO ev VALUES (1, '2024-02-29 13:45:10.25', '2024-02-29', '1 year 2 mons 3 days 04:05:06'),"
                    + " (2, '1999-12-31 23:59:59', '2000-01-01', '-1 days +02:03'),"
                    + " (3, NULL, NULL, NULL),"
                    + " (4, '2021-01-31 00:00:00', '2021-01-31', '1 mon'),"
                    + " (5, '1970-01-01 00:00:00', '1970-01-01', '30 days'),"
                    + " (6, '2023-06-15 08:30:00', '2023-06-15', '@ 5 hours ago'),"
                    + " (7, '2010-10-10 10:10:10.123456', '2010-10-10', 'P1Y2M3DT4H5M6.5S')");

    /** Statements whose rows must equal PostgreSQL's. */
    private static final String[] SAME = {
        "SELECT id, span FROM ev ORDER BY id",
        "SELECT id, span FROM ev ORDER BY span, id",
        "SELECT id, span FROM ev ORDER BY span DESC NULLS LAST, id",
        "SELECT id FROM ev WHERE span > interval '1 day' ORDER BY id",
        "SELECT id FROM ev WHERE span = interval '30 days' ORDER BY id",
        "SELECT id FROM ev WHERE span <= '-3 hours' ORDER BY id",
        "SELECT min(span), max(span), count(span) FROM ev",
        "SELECT id, at + span, d + span, at - span FROM ev ORDER BY id",
        "SELECT id, at + interval '1 month', d - interval '1 year', at - interval '1 day 2 hours' FROM ev ORDER BY id",
        "SELECT id, at - timestamp '2000-01-01', d - date '2000-01-01', d + 30, d - 1 FROM ev ORDER BY id",
        "SELECT id, span * 2, span / 3, 1.5 * span, -span, span + interval '1 hour', span - span FROM ev ORDER BY id",
        "SELECT id, extract(year from at), extract(month from at), extract(day from d), extract(hour from at),"
                + " extract(minute from at), extract(dow from at), extract(doy from at), extract(week from at),"
                + " extract(quarter from at), extract(isodow from d), date_part('epoch', at)::int8, date_part('second', at) FROM ev ORDER BY id",
        "SELECT id, date_part('year', span), date_part('month', span), date_part('day', span), date_part('hour', span),"
                + " date_part('epoch', span)::int8, date_part('second', span) FROM ev ORDER BY id",
        "SELECT id, date_trunc('month', at), date_trunc('year', at), date_trunc('hour', at), date_trunc('week', at),"
                + " date_trunc('quarter', at), date_trunc('day', d)::date FROM ev ORDER BY id",
        "SELECT id, to_char(at, 'YYYY-MM-DD HH24:MI:SS'), to_char(at, 'FMDay, DD Mon YYYY'), to_char(at, 'Month DY dy MS US'),"
                + " to_char(d, 'DDD IW Q HH12 AM'), to_char(at, 'FMMonth FMDDth YYYY') FROM ev ORDER BY id",
        "SELECT id, age(at, timestamp '1957-06-13'), age(d, date '2020-02-29') FROM ev ORDER BY id",
        "SELECT justify_days(interval '35 days'), justify_hours(interval '27 hours'), justify_interval(interval '1 mon -1 hour')",
        "SELECT interval '1 day 2 hours', '1 year 2 mons'::interval, interval '1' day, 'P1Y2M'::interval, interval '-1 +02:03'",
        "SELECT interval '1.5 weeks', interval '1.5 months', interval '10 years -11 month -12 days +13:14', interval '@ 1 minute ago'",
        "SELECT interval '1 day 2:03:04' hour to minute, interval '2 years 3 months' year, interval '0', interval '-00:00:01.5'",
        "SELECT make_date(2024, 2, 29), make_timestamp(2001, 2, 3, 4, 5, 6.5), make_interval(1, 2, 3, 4, 5, 6, 7.5)",
        "SELECT to_date('05 Dec 2000', 'DD Mon YYYY'), to_timestamp('2011-12-18 23:38:15', 'YYYY-MM-DD HH24:MI:SS')::timestamp,"
                + " to_timestamp(0)::timestamp, to_timestamp(1284352323.5)::timestamp",
        "SELECT date '2020-03-01' - date '2020-01-01', timestamp '2020-01-31' + interval '1 month',"
                + " timestamp '2021-03-01 10:00' - timestamp '2020-01-01', date 'epoch', timestamp 'epoch'",
        "SELECT CASE WHEN interval '1 mon' = interval '30 days' THEN 'eq' END, CASE WHEN interval '1 day' < interval '25 hours' THEN 'lt' END,"
                + " CASE WHEN interval '1 year' > interval '360 days' THEN 'gt' ELSE 'not gt' END",
        "SELECT CASE WHEN isfinite(date '2020-01-01') THEN 'finite' END, extract(epoch from interval '1 year')::int8",
        "SELECT count(id) FROM ev WHERE at < now() AND d <= current_date AND at < localtimestamp AND now() = current_timestamp",
        "SELECT date 'January 8, 1999', date '1/8/1999', date '1999-Jan-08', date '08 Jan 99', date '19990108', date '1999.008',"
                + " date 'J2451187', date '2040-04-10 BC', make_date(-44, 3, 15)",
        "SELECT timestamp 'Mon Feb 10 17:32:01 1997 PST', timestamp '1997-02-10 17:32:01-08', timestamp 'Feb 10 5:32PM 1997'",
        "SELECT interval '1 2:03' day to second, interval '12:34.5678' minute to second(2), interval '1.23456' second(3),"
                + " interval '1 day 2:30' hour, interval '2:03.5'",
        "SELECT timestamp without time zone '1997-01-02', timestamp(2) without time zone '2000-01-01 10:00:00',"
                + " CASE WHEN timestamp 'tomorrow EST' = timestamp 'tomorrow' THEN 'zone ignored' END",
        "SELECT now() - now(), current_date - current_date, CASE WHEN date_trunc('day', now()) = current_date::timestamp THEN 'today' END",
    };

    /** Statements PostgreSQL refuses: RespSQL must refuse them with the same SQLSTATE. */
    private static final String[] ERRORS = {
        "SELECT interval 'badly formatted interval'",
        "SELECT interval '@ 30 eons ago'",
        "SELECT '2147483648 days'::interval",
        "SELECT date '2021-02-30'",
        "SELECT timestamp 'not a time'",
        "SELECT date_trunc('fortnight', timestamp '2020-01-01')",
        "SELECT date_part('eon', timestamp '2020-01-01')",
        "SELECT extract(hour from date '2020-01-01')",
        "SELECT interval '1 day' / 0",
        "SELECT make_date(2021, 2, 30)",
        "SELECT to_date('2021-02-30', 'YYYY-MM-DD')",
        "INSERT INTO ev (id, span) VALUES (99, 'five minutes')",
        "SELECT timestamp '97FEB10 5:32:01PM UTC'",
        "SELECT timestamp '97/02/10 17:32:01 UTC'",
        "SELECT timestamp 'Feb 16 17:32:01 5097 BC'",
    };

    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("time", LOAD, true, c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    @Test
    void rowsAreThoseOfPostgresql() throws Exception {
        List<String> failures = new ArrayList<>();
        for (String q : SAME) {
            String d = both.difference(q);
            if (d != null) {
                failures.add(d);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void errorsAreThoseOfPostgresql() throws Exception {
        List<String> failures = new ArrayList<>();
        String pgUrl = "jdbc:postgresql://127.0.0.1:" + both.pg.port() + "/" + both.pg.database();
        String ourUrl = "jdbc:postgresql://" + both.server.host() + ":" + both.server.server().pgPort() + "/respsql";
        try (java.sql.Connection p = java.sql.DriverManager.getConnection(pgUrl, both.pg.user(), "");
                java.sql.Connection r = java.sql.DriverManager.getConnection(ourUrl, "tester", "")) {
            for (String q : ERRORS) {
                String want = state(p, q);
                String got = state(r, q);
                if (want == null || !want.equals(got)) {
                    failures.add(q + ": PostgreSQL " + want + ", RespSQL " + got);
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** The SQLSTATE a statement fails with, or null when it succeeds. */
    private static String state(java.sql.Connection c, String q) {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute(q);
            return null;
        } catch (java.sql.SQLException e) {
            return e.getSQLState();
        }
    }

}
