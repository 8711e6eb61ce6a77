package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL's arrays (issue 25/26) over the PostgreSQL protocol against PostgreSQL 15 itself: the
 * same statements through pgjdbc to both, each value compared as its text with its column's type
 * name (pgjdbc's {@code _int4}, {@code _text}, ...), errors by SQLSTATE. Constructors and text
 * forms (quoting), casts, comparison and order, subscripts and slices, ANY/ALL, the functions and
 * operators, array columns written by INSERT and UPDATE, and pgjdbc's own array API (getArray,
 * createArrayOf parameters, binary results of a prepared statement).
 */
class ArraysPgTest {
    private static JdbcPair pair;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        pair = JdbcPair.start();
        server = pair.server();
        theirs = pair.theirs();
        ours = pair.ours();
        both("CREATE TABLE at (id INT PRIMARY KEY, ia INT[], ta TEXT[], fa FLOAT8[], ba BOOLEAN[], na NUMERIC[], "
                + "da DATE[], ba8 BIGINT[])");
        both("INSERT INTO at VALUES (1, '{1,2,3}', '{a,\"b c\",NULL}', '{1.5,-2}', '{t,f}', '{1.50,2}', '{2024-01-02}', '{9000000000}')");
        both("INSERT INTO at VALUES (2, ARRAY[10,NULL,30], ARRAY['x''y', '', 'NULL'], ARRAY[0.25::float8], ARRAY[true], "
                + "ARRAY[3.25], ARRAY['2023-12-31'::date], ARRAY[1::bigint, 2])");
        both("INSERT INTO at VALUES (3, '{}', '{}', NULL, NULL, NULL, NULL, NULL)");
        both("INSERT INTO at (id, ia) VALUES (4, ARRAY[2, 1])");
        both("INSERT INTO at (id, ia, ta) VALUES (5, '{{1,2},{3,4}}', '{\"{\",\"}\",\",\",\"\\\\\",\"\\\"\"}')");
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    private static List<String> same(String sql) throws SQLException {
        return pair.same(sql);
    }

    private static void fails(String state, String sql) throws SQLException {
        pair.fails(state, sql);
    }

    private static void both(String sql) throws SQLException {
        pair.both(sql);
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        return JdbcPair.rows(c, sql);
    }

    @Test
    void constructorsTextFormsAndCasts() throws SQLException {
        String[] queries = {
            "SELECT ARRAY[1,2,3], ARRAY['a','b c',NULL,'NULL','','x\"y','a\\b'], ARRAY[[1,2],[3,4]]",
            "SELECT ARRAY[true,false], ARRAY[1.5::float8, 2], ARRAY[1.50, 2], ARRAY[1, 2.5], ARRAY['2024-01-02'::date]",
            "SELECT '{1, 2 ,3}'::int[], '{ a , \"b\" }'::text[], '{}'::int[], '{{1,2},{3,4}}'::int[], '{NULL,null}'::int[]",
            "SELECT '{1,2}'::_int4, CAST('{1,2}' AS integer[]), '{1,2}'::int4[]::text, ARRAY[1,2]::bigint[], '{1,2}'::text[]",
            "SELECT '{t,yes,0}'::bool[], '{1e3,-0.5}'::float8[], '{0.10,NaN}'::numeric[]",
            "SELECT ARRAY[1,2] || 3, 0 || ARRAY[1,2], ARRAY[1,2] || ARRAY[3], ARRAY[[1,2]] || ARRAY[3,4], ARRAY['a'] || 'b'::text",
        };
        for (String q : queries) {
            same(q);
        }
        fails("22P02", "SELECT '{1,2'::int[]");
        fails("22P02", "SELECT '{1,x}'::int[]");
        fails("22P02", "SELECT '{{1},2}'::int[]");
        fails("2202E", "SELECT ARRAY[ARRAY[1,2], ARRAY[3]]");
        fails("22003", "SELECT '{99999999999}'::int[]");
    }

    @Test
    void comparisonOrderSubscriptsAndQuantifiers() throws SQLException {
        String[] queries = {
            "SELECT ARRAY[1,2] = '{1,2}', ARRAY[1,2] < ARRAY[1,3], ARRAY[10] < ARRAY[9], ARRAY[1] < ARRAY[1,0], ARRAY[1,NULL] > ARRAY[1,5]",
            "SELECT id, ia FROM at ORDER BY ia, id",
            "SELECT id, ia FROM at ORDER BY ia DESC NULLS LAST, id",
            "SELECT id, ta FROM at ORDER BY ta, id",
            "SELECT id, ia[1], ia[2], ia[4], ia[1:2], ia[2:], ia[:1], ta[1], fa[1], ba[2], na[1], da[1], ba8[1] FROM at ORDER BY id",
            "SELECT ia[2][1], ia[1:2][2:2], ia[1] FROM at WHERE id = 5",
            "SELECT id FROM at WHERE 2 = ANY(ia) ORDER BY id",
            "SELECT id FROM at WHERE 2 <> ALL(ia) ORDER BY id",
            "SELECT id, 3 = ANY(ia), 3 <> ALL(ia), 1 < ALL(ia), 20 > SOME(ia) FROM at ORDER BY id",
            "SELECT 'b c' = ANY(ta), id FROM at ORDER BY id",
            "SELECT id FROM at WHERE id = ANY('{1,3}') ORDER BY id",
            "SELECT id FROM at WHERE id = ANY(ARRAY[2,4,NULL]) ORDER BY id",
            "SELECT id FROM at WHERE ia = '{1,2,3}' OR ia = ARRAY[2,1]",
            "SELECT ia, count(*) FROM at GROUP BY ia ORDER BY ia",
            "SELECT DISTINCT ta FROM at ORDER BY ta",
            "SELECT max(ia), min(ia) FROM at",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void functionsAndOperators() throws SQLException {
        String[] queries = {
            "SELECT id, array_length(ia, 1), array_length(ia, 2), cardinality(ia), array_upper(ia, 1), array_lower(ia, 1), "
                    + "array_ndims(ia), array_dims(ia) FROM at ORDER BY id",
            "SELECT id, array_to_string(ia, ','), array_to_string(ia, ',', '*'), array_to_string(ta, '|') FROM at ORDER BY id",
            "SELECT string_to_array('xx~^~yy~^~zz', '~^~', 'yy'), string_to_array('a,b', ','), string_to_array('abc', NULL), "
                    + "string_to_array('', ','), string_to_array('a,b', '')",
            "SELECT id, array_append(ia, 9), array_prepend(0, ia), array_cat(ia, ARRAY[7,8]) FROM at WHERE id < 5 ORDER BY id",
            "SELECT array_position(ARRAY['a','b','c','b'], 'b'), array_position(ARRAY['a','b','c','b'], 'b', 3), "
                    + "array_positions(ARRAY[1,2,1,NULL], 1), array_position(ARRAY[1,NULL], NULL)",
            "SELECT array_remove(ARRAY[1,2,3,2], 2), array_remove(ARRAY[1,NULL,3], NULL), array_replace(ARRAY[1,2,3], 2, 9)",
            "SELECT id, ia @> ARRAY[1], ia <@ ARRAY[1,2,3,30], ia && ARRAY[3,10] FROM at ORDER BY id",
            "SELECT ARRAY[1,2,3] @> ARRAY[3,1], ARRAY[1,NULL] @> ARRAY[NULL::int], ARRAY[1] <@ ARRAY[1,2], ARRAY[1,2] && ARRAY[3]",
            "SELECT id FROM at WHERE ta @> ARRAY['a'] ORDER BY id",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void arrayColumnsAreWrittenAndReadBack() throws SQLException {
        both("CREATE TABLE aw (id INT PRIMARY KEY, v INT[], t TEXT[])");
        both("INSERT INTO aw VALUES (1, '{1,2}', '{a}'), (2, ARRAY[3], NULL)");
        both("UPDATE aw SET v = v || 3, t = array_append(t, 'b,c') WHERE id = 1");
        both("UPDATE aw SET v[1] = 5 WHERE id = 2");
        both("UPDATE aw SET t = '{\"x y\"}' WHERE t IS NULL");
        same("SELECT * FROM aw ORDER BY id");
        same("SELECT v, t FROM aw WHERE v @> '{5}'");
        fails("22P02", "INSERT INTO aw VALUES (3, '{a}', NULL)");
        same("SELECT count(*) FROM aw");
        both("CREATE TABLE aw2 AS SELECT id, v || 0 AS w FROM aw");
        same("SELECT * FROM aw2 ORDER BY id");
    }

    @Test
    void pgjdbcArrayApi() throws SQLException {
        List<List<String>> answers = new ArrayList<>();
        for (Connection c : new Connection[] {theirs, ours}) {
            List<String> all = new ArrayList<>();
            answers.add(all);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT ia, ta FROM at WHERE id = 2")) {
                assertTrue(rs.next());
                Array a = rs.getArray(1);
                assertEquals("int4", a.getBaseTypeName());
                assertArrayEquals(new Integer[] {10, null, 30}, (Object[]) a.getArray());
                assertArrayEquals(new String[] {"x'y", "", "NULL"}, (Object[]) rs.getArray(2).getArray());
            }
            // a parameter of array type, and a named statement's binary results (after pgjdbc's prepareThreshold)
            try (PreparedStatement ps = c.prepareStatement("SELECT id, ia, ta, fa, ba8 FROM at WHERE id = ANY(?) ORDER BY id")) {
                ps.setArray(1, c.createArrayOf("int4", new Integer[] {1, 2}));
                for (int run = 0; run < 7; run++) {
                    // run 5 on: a named statement, its array results in binary (pgjdbc then quotes getString's elements)
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            all.add(run + ":" + rs.getInt(1) + ":" + rs.getString(2) + ":" + rs.getString(3) + ":" + rs.getString(4)
                                    + ":" + rs.getString(5) + ":" + java.util.Arrays.toString((Object[]) rs.getArray(2).getArray())
                                    + ":" + java.util.Arrays.toString((Object[]) rs.getArray(3).getArray())
                                    + ":" + java.util.Arrays.toString((Object[]) rs.getArray(4).getArray()));
                        }
                    }
                }
            }
        }
        assertEquals(14, answers.get(0).size());
        assertEquals("0:1:{1,2,3}:{a,\"b c\",NULL}:{1.5,-2}:{9000000000}:[1, 2, 3]:[a, b c, null]:[1.5, -2.0]", answers.get(0).get(0));
        assertEquals(answers.get(0), answers.get(1));
    }
}
