package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;

/**
 * Keywords are codes the grammar asks for, not reserved words: a table, column or unquoted
 * 2010 text value spelled like an SQL keyword (today's or one standard SQL will bring) keeps
 * working as a name or a value, however the client splits the statement.
 */
class KeywordNamesTest extends ServerTestBase {

    @AfterEach
    void dropTables() {
        try (SqlSession s = new SqlSession(server)) {
            s.dropAllTables();
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void tablesColumnsAndValuesSpelledLikeKeywords(Split split) {
        try (SqlSession s = new SqlSession(server, split)) {
            s.expect("CREATE TABLE date \"(first int primary key, order TEXT, join INT, timestamp FLOAT)\"", OK);
            s.expect("CREATE INDEX date:join:index ON date \\(join\\)", OK);
            s.expect("INSERT INTO date VALUES \"(1,last,7,1.5)\"", OK);
            s.expect("INSERT INTO date VALUES \"(2,select,7,2)\"", OK);
            s.expect("INSERT INTO date VALUES \"(3,case when,8,3)\"", OK);
            s.expect("SELECT \"first,order\" FROM date WHERE \"join = 7 ORDER BY first DESC\"", rows("2,select", "1,last"));
            s.expect("SELECT \"order\" FROM date WHERE \"order IN (last,distinct,select) ORDER BY order\"", rows("last", "select"));
            s.expect("SELECT \"first\" FROM date WHERE \"order = select\"", rows("2"));
            s.expect("SELECT \"COUNT(*)\" FROM date WHERE \"timestamp BETWEEN 1.5 AND 2\"", integer(2));
            s.expect("UPDATE date SET \"order=union all,timestamp=timestamp+1\" WHERE \"join=7\"", integer(2));
            s.expect("SELECT \"*\" FROM date ORDER BY first", rows("1,union all,7,2.5", "2,union all,7,3", "3,case when,8,3"));
            s.expect("DELETE FROM date WHERE \"first BETWEEN 2 AND 3\"", integer(2));
            s.expect("DROP TABLE date", integer(3)); // the table, its primary key and date:join:index
        }
    }
}
