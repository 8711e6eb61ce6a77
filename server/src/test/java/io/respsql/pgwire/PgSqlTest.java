package io.respsql.pgwire;

import io.respsql.sql.SqlException;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PgSqlTest {
    @Test
    void splitsAtSemicolonsOutsideQuotesAndComments() {
        assertEquals(List.of("SELECT 1", " SELECT 'a;b'", " -- x;y\nSELECT \"c;d\" /* ; */"),
                PgSql.split("SELECT 1; SELECT 'a;b'; -- x;y\nSELECT \"c;d\" /* ; */;"));
        assertEquals(List.of(), PgSql.split(" ; -- only a comment\n;"));
        assertEquals(List.of("SELECT 'it''s;'"), PgSql.split("SELECT 'it''s;'"));
    }

    @Test
    void substitutesParametersOutsideQuotes() {
        assertEquals("SELECT * FROM t WHERE a = 5 AND b = 'x''y' AND c = '$1'",
                PgSql.substitute("SELECT * FROM t WHERE a = $1 AND b = $2 AND c = '$1'", new String[] {"5", "'x''y'"}));
        assertEquals("SELECT a- -5", PgSql.substitute("SELECT a-$1", new String[] {"-5"}));
        assertEquals(12, PgSql.parameterCount("SELECT $12, $3, 'no $40' -- $50"));
        assertThrows(SqlException.class, () -> PgSql.substitute("SELECT $2", new String[] {"1"}));
    }

    /**
     * `name` and [name] are quoted as the Lexer quotes them: no $n substituted and no ; split
     * inside, so a value holding ] or ` never escapes into statement text.
     */
    @Test
    void quotedNamesAreSkippedLikeTheLexerSkipsThem() {
        String evil = PgParams.quote("x] ; DROP TABLE t; --");
        assertEquals("SELECT [$1] FROM t WHERE a = " + evil,
                PgSql.substitute("SELECT [$1] FROM t WHERE a = $1", new String[] {evil}));
        String tick = PgParams.quote("x` ; DROP TABLE t; --");
        assertEquals("SELECT `$1`, `a``$1` FROM t WHERE a = " + tick,
                PgSql.substitute("SELECT `$1`, `a``$1` FROM t WHERE a = $1", new String[] {tick}));
        assertEquals(1, PgSql.parameterCount("SELECT [$7], `$8`, \"$9\", '$10', /* $11 /* $12 */ $13 */ $1"));
        assertEquals(List.of("SELECT [a;b] FROM t", " SELECT `c;d`"), PgSql.split("SELECT [a;b] FROM t; SELECT `c;d`"));
        // [ ] has no escape (the first ] closes it), as in the Lexer
        assertEquals(List.of("SELECT [a]", "]"), PgSql.split("SELECT [a];]"));
        // the substituted text lexes to the same tokens as the statement plus one string
        List<io.respsql.sql.Token> tokens = io.respsql.sql.Lexer.tokenize(
                PgSql.substitute("SELECT [$1] FROM t WHERE a = $1", new String[] {evil}));
        assertEquals("$1", tokens.get(1).text);
        assertEquals("x] ; DROP TABLE t; --", tokens.get(tokens.size() - 2).text);
        assertEquals(9, tokens.size());
    }

    @Test
    void tags() {
        assertEquals("INSERT 0 3", PgSql.tag("insert into t values (1)", -1, 3));
        assertEquals("UPDATE 0", PgSql.tag(" /* c */ UPDATE t SET a = 1", -1, 0));
        assertEquals("SELECT 7", PgSql.tag("select 1", 7, -1));
        assertEquals("CREATE INDEX", PgSql.tag("CREATE UNIQUE INDEX i ON t (a)", -1, 1));
        assertEquals("DROP TABLE", PgSql.tag("drop table t", -1, 1));
        assertEquals(9, PgSql.errorPosition("syntax error: unexpected 'x' at position 9"));
    }

    @Test
    void parameterValuesBecomeLiteralsOnly() {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.copiedBuffer("x' OR '1'='1", java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("'x'' OR ''1''=''1'", PgParams.literal(b, b.readableBytes(), 0, 0, 1));
        io.netty.buffer.ByteBuf n = io.netty.buffer.Unpooled.copiedBuffer("1; DROP TABLE t", java.nio.charset.StandardCharsets.UTF_8);
        assertThrows(SqlException.class, () -> PgParams.literal(n, n.readableBytes(), PgMessages.INT4, 0, 1));
        io.netty.buffer.ByteBuf f = io.netty.buffer.Unpooled.copiedBuffer("1e5 OR 1=1", java.nio.charset.StandardCharsets.UTF_8);
        assertThrows(SqlException.class, () -> PgParams.literal(f, f.readableBytes(), PgMessages.FLOAT8, 0, 1));
        io.netty.buffer.ByteBuf bin = io.netty.buffer.Unpooled.buffer().writeLong(-42);
        assertEquals("-42", PgParams.literal(bin, 8, PgMessages.INT8, 1, 1));
        assertEquals("NULL", PgParams.literal(bin, -1, PgMessages.TEXT, 0, 1));
        // pgjdbc's setDate/setTimestamp: the offset goes, as PostgreSQL's date and timestamp inputs drop it
        io.netty.buffer.ByteBuf d = io.netty.buffer.Unpooled.copiedBuffer("2024-02-29 +01", java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("'2024-02-29'", PgParams.literal(d, d.readableBytes(), 0, 0, 1));
        io.netty.buffer.ByteBuf ts = io.netty.buffer.Unpooled.copiedBuffer("2024-02-29 10:11:12.5-03:30", java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("'2024-02-29 10:11:12.5'", PgParams.literal(ts, ts.readableBytes(), 0, 0, 1));
        io.netty.buffer.ByteBuf t = io.netty.buffer.Unpooled.copiedBuffer("2024-02-29 +01", java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("'2024-02-29 +01'", PgParams.literal(t, t.readableBytes(), PgMessages.TEXT, 0, 1));
    }

    /** RFC 7677's example exchange (user "user", password "pencil"). */
    @Test
    void scramRfc7677Example() {
        byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
        Scram.Verifier v = Scram.Verifier.of("pencil", salt);
        Scram s = new Scram(v, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
        assertEquals("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
                s.clientFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"));
        assertEquals("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
                s.clientFinal("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                        + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
        Scram wrong = new Scram(Scram.Verifier.of("pencil2", salt), "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
        wrong.clientFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        assertNull(wrong.clientFinal("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
    }
}
