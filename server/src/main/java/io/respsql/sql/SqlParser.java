package io.respsql.sql;

import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.sql.tree.TypeName;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Recursive-descent parser from statement text to {@link io.respsql.sql.tree} syntax trees:
 * the SQLite/PostgreSQL grammar the conformance corpus uses, plus the 2010 dialect
 * (unquoted text values, {@code RETURN SIZE}, SCANSELECT, index names with {@code :}).
 *
 * <p>Keywords are not reserved (see {@link Keyword}): a word acts as a keyword only where the
 * grammar asks for it, so {@code count}, {@code date} or {@code first} stay usable as names.
 * The only places that must refuse some keywords are the optional ones: an alias written
 * without AS ({@code FROM t WHERE ...} is no alias "WHERE").
 *
 * <p>Expression precedence, lowest first, as in SQLite: OR; AND; NOT; the equality level
 * ({@code = == != <> IS [NOT] IN LIKE BETWEEN ISNULL NOTNULL}); {@code < <= > >=};
 * {@code + -}; {@code * / %}; {@code ||}; unary {@code + -}; primaries. Binary operators are
 * left-associative. Errors name the token found and what was expected there.
 *
 * <p>Readings chosen where the dialects meet:
 * <ul>
 * <li>{@code "x"} is a name wherever a name is expected; as a value it is a column reference,
 *     which the binder reads as text where no such column exists (SQLite's rule; the 2010
 *     {@code VALUES (2, "b")} still stores "b").</li>
 * <li>A value in INSERT's VALUES, an IN list or SET is an expression when it is arithmetic
 *     or names no column, else the verbatim text ({@link #valueOrRaw}).</li>
 * <li>{@code x IN t} is {@code x IN (SELECT * FROM t)}; {@code x'3031'} is the text its bytes
 *     spell; {@code NOT INDEXED} / {@code INDEXED BY i} are read and dropped.</li>
 * <li>ORDER BY / LIMIT after VALUES or after an already limited parenthesized query wrap it
 *     as {@code SELECT * FROM (...)}.</li>
 * </ul>
 */
public final class SqlParser {
    /**
     * Deepest nesting accepted (parentheses, operator chains, subqueries). Binding and evaluation
     * recurse over the tree as well, so an absurdly nested statement is refused with an error,
     * not a StackOverflowError.
     */
    public static final int MAX_DEPTH = 200;

    private static final String STATEMENT_START =
            "a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW)";

    /**
     * Words that cannot be an alias written without AS, because they continue the statement
     * after a select item or a table ({@code FROM t WHERE}, {@code SELECT a FROM}, {@code t LEFT JOIN}).
     */
    /** Type names PostgreSQL's {@code type 'text'} literal takes here (DATE and TIMESTAMP: both dialects). */
    private static final Set<String> PG_LITERAL_TYPES = Set.of("BOOL", "BOOLEAN", "INT", "INT2", "INT4", "INT8", "INTEGER",
            "SMALLINT", "BIGINT", "FLOAT4", "FLOAT8", "REAL", "NUMERIC", "DECIMAL", "TEXT", "VARCHAR", "CHAR", "NAME", "BPCHAR",
            "TIMESTAMPTZ");

    private static final Set<Keyword> NOT_AN_IMPLICIT_ALIAS = EnumSet.of(
            Keyword.FROM, Keyword.WHERE, Keyword.GROUP, Keyword.HAVING, Keyword.ORDER, Keyword.LIMIT, Keyword.OFFSET,
            Keyword.UNION, Keyword.INTERSECT, Keyword.EXCEPT, Keyword.JOIN, Keyword.ON, Keyword.USING, Keyword.LEFT,
            Keyword.RIGHT, Keyword.FULL, Keyword.INNER, Keyword.OUTER, Keyword.CROSS, Keyword.NATURAL, Keyword.AS,
            Keyword.SET, Keyword.VALUES, Keyword.WINDOW, Keyword.RETURN, Keyword.AND, Keyword.OR, Keyword.NOT,
            Keyword.IS, Keyword.IN, Keyword.LIKE, Keyword.GLOB, Keyword.BETWEEN, Keyword.ISNULL, Keyword.NOTNULL,
            Keyword.ESCAPE, Keyword.WHEN, Keyword.THEN, Keyword.ELSE, Keyword.END, Keyword.COLLATE, Keyword.ASC,
            Keyword.DESC, Keyword.NULLS, Keyword.OVER, Keyword.FILTER, Keyword.SELECT, Keyword.SCANSELECT, Keyword.INDEXED,
            Keyword.RETURNING);

    private final String sql;
    private final List<Token> tokens;
    private int pos;
    private int depth;
    /** Column references built so far: tells a 2010 unquoted value from an expression of constants. */
    private int namesSeen;
    /** The one "nested too deep" error of this parse: backtracking must not swallow it. */
    private SqlException tooDeep;

    private SqlParser(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    public static Statement parse(String sql) {
        SqlParser p = new SqlParser(sql);
        Statement s = p.statement();
        p.acceptSymbol(Symbol.SEMICOLON);
        if (p.peek().type != Token.Type.END) {
            throw p.error("end of statement");
        }
        return s;
    }

    /**
     * Statements separated by {@code ;} (a script, as a sqllogictest record may hold several);
     * a trailing {@code ;} is allowed.
     */
    public static List<Statement> parseScript(String sql) {
        SqlParser p = new SqlParser(sql);
        List<Statement> out = new ArrayList<>();
        while (p.peek().type != Token.Type.END) {
            out.add(p.statement());
            if (!p.acceptSymbol(Symbol.SEMICOLON) && p.peek().type != Token.Type.END) {
                throw p.error("';' or end of statement");
            }
            while (p.acceptSymbol(Symbol.SEMICOLON)) {
                // empty statements
            }
        }
        return out;
    }

    // ---- statements --------------------------------------------------------------------------

    private Statement statement() {
        Token t = peek();
        if (t.is(Symbol.LPAREN)) {
            return new Statement.QueryStatement(query());
        }
        Statement sequence = sequenceStatement();
        if (sequence != null) {
            return sequence;
        }
        Statement acl = aclStatement();
        if (acl != null) {
            return acl;
        }
        if (Dialect.postgres() && (t.isKeyword("ANALYZE") || t.isKeyword("ANALYSE") || t.isKeyword("VACUUM"))) {
            return maintenance(); // regress25
        }
        Keyword kw = t.keyword();
        if (kw == null) {
            if (t.isKeyword("TRUNCATE")) {
                pos++;
                return truncate();
            }
            throw error(STATEMENT_START);
        }
        switch (kw) {
            case ALTER:
                pos++;
                return alter();
            case CREATE:
                pos++;
                return create();
            case DROP:
                pos++;
                return drop();
            case DESC:
            case DESCRIBE:
                pos++;
                return new Statement.Describe(name("table name"));
            case DUMP:
                pos++;
                return new Statement.Dump(name("table name"));
            case SHOW:
                pos++;
                if (acceptKeyword(Keyword.TABLES)) {
                    return new Statement.ShowTables();
                }
                if (acceptKeyword(Keyword.INDEXES) || acceptKeyword(Keyword.INDEX)) {
                    String from = acceptKeyword(Keyword.FROM) || acceptKeyword(Keyword.IN) ? name("table name") : null;
                    return new Statement.ShowIndexes(from);
                }
                throw error("TABLES or INDEXES after SHOW");
            case INSERT:
                pos++;
                return insert();
            case SELECT:
            case SCANSELECT:
            case VALUES: {
                intoAllowed = Dialect.postgres();
                Query q = query();
                intoAllowed = false;
                if (selectInto != null) {
                    return selectInto(q);
                }
                return new Statement.QueryStatement(q);
            }
            case WITH:
                if (Dialect.postgres()) {
                    Statement written = withWrite();
                    return written != null ? written : new Statement.QueryStatement(query());
                }
                throw error(STATEMENT_START);
            case UPDATE:
                pos++;
                return update();
            case DELETE:
                pos++;
                return delete();
            case EXPLAIN:
                pos++;
                deeper();
                Statement inner = statement();
                depth--;
                return new Statement.Explain(inner);
            default:
                throw error(STATEMENT_START);
        }
    }

    private Statement create() {
        // TEMP/TEMPORARY: accepted for views (SQLite); every object lives in memory anyway
        boolean temp = acceptKeyword(Keyword.TEMP) || acceptKeyword(Keyword.TEMPORARY);
        if (!temp && Dialect.postgres() && peek().isKeyword("UNLOGGED") && peek(1).is(Keyword.TABLE)) {
            pos++; // PostgreSQL's UNLOGGED: every table here is logged, which only makes it safer
        }
        if ((!temp || Dialect.postgres()) && acceptKeyword(Keyword.TABLE)) {
            // PostgreSQL's CREATE TEMP TABLE: a table (every table lives in memory; none is dropped at disconnect)
            return createTable();
        }
        if (!temp && acceptKeyword(Keyword.UNIQUE)) {
            expectKeyword(Keyword.INDEX);
            return createIndex(true);
        }
        if (!temp && acceptKeyword(Keyword.INDEX)) {
            return createIndex(false);
        }
        if (acceptKeyword(Keyword.VIEW)) {
            return createView();
        }
        throw error(temp ? "VIEW after CREATE TEMP" : "TABLE, INDEX or VIEW after CREATE");
    }

    private boolean ifNotExists() {
        if (peek().is(Keyword.IF) && peek(1).is(Keyword.NOT) && peek(2).is(Keyword.EXISTS)) {
            pos += 3;
            return true;
        }
        return false;
    }

    private boolean ifExists() {
        if (peek().is(Keyword.IF) && peek(1).is(Keyword.EXISTS)) {
            pos += 2;
            return true;
        }
        return false;
    }

    private Statement createTable() {
        boolean ifNotExists = ifNotExists();
        String table = name("table name");
        if (Dialect.postgres() && peek().isKeyword("PARTITION") && peek(1).isKeyword("OF")) {
            return partitionOf(table, ifNotExists); // partition
        }
        if (Dialect.postgres() && (peek().is(Keyword.AS) || peek().is(Keyword.WITH)
                || peek().is(Symbol.LPAREN) && isName(peek(1)) && (peek(2).is(Symbol.COMMA) || peek(2).is(Symbol.RPAREN)))) {
            return createTableAs(table, ifNotExists);
        }
        expectSymbol(Symbol.LPAREN);
        List<Statement.ColumnDef> cols = new ArrayList<>();
        List<Statement.KeyConstraint> keys = new ArrayList<>();
        List<Statement.TableConstraint> constraints = new ArrayList<>();
        columnConstraints = constraints;
        columnKeys = keys;
        try {
            do {
                Statement.TableConstraint c = tableConstraint();
                if (c == null) {
                    cols.add(columnDef());
                } else if (c.kind() == Statement.ConstraintKind.PRIMARY_KEY || c.kind() == Statement.ConstraintKind.UNIQUE) {
                    keys.add(new Statement.KeyConstraint(c.kind() == Statement.ConstraintKind.PRIMARY_KEY, c.columns(), c.name()));
                } else {
                    constraints.add(c);
                }
            } while (acceptSymbol(Symbol.COMMA));
        } finally {
            columnConstraints = null;
            columnKeys = null;
        }
        expectSymbol(Symbol.RPAREN);
        Statement.PartitionKey partitionKey = Dialect.postgres() ? partitionKey() : null; // partition
        if (Dialect.postgres()) {
            storageOptions();
        }
        if (partitionKey != null) {
            return new Statement.CreatePartitioned(new Statement.CreateTable(table, cols, keys, ifNotExists, constraints), partitionKey);
        }
        return new Statement.CreateTable(table, cols, keys, ifNotExists, constraints);
    }

    private Statement.ColumnDef columnDef() {
        String col = name("column name");
        Token t = peek();
        if (!isName(t) || t.is(Keyword.PRIMARY) || t.is(Keyword.NOT) || t.is(Keyword.NULL) || t.is(Keyword.UNIQUE)
                || t.is(Keyword.DEFAULT)) {
            throw error("a column type (INT, BIGINT, FLOAT, TEXT) for column '" + col + "'");
        }
        TypeName type = typeName();
        boolean primary = false;
        boolean notNull = false;
        boolean unique = false;
        Expr defaultValue = null;
        String defaultText = null;
        Statement.Identity identity = null;
        String constraintName = null;
        while (true) {
            if (acceptKeyword(Keyword.PRIMARY)) {
                expectKeyword(Keyword.KEY);
                if (!acceptKeyword(Keyword.ASC)) {
                    acceptKeyword(Keyword.DESC);
                }
                if (constraintName != null && columnKeys != null) {
                    columnKeys.add(new Statement.KeyConstraint(true, List.of(col), constraintName));
                } else {
                    primary = true;
                }
            } else if (peek().isKeyword("DEFERRABLE") || peek().isKeyword("INITIALLY")
                    || peek().is(Keyword.NOT) && peek(1).isKeyword("DEFERRABLE")) {
                constraintTail(); // of the constraint before: accepted, checked at once
            } else if (acceptKeyword(Keyword.NOT)) {
                expectKeyword(Keyword.NULL);
                notNull = true;
            } else if (acceptKeyword(Keyword.NULL)) {
                // explicitly nullable: the default
            } else if (acceptKeyword(Keyword.UNIQUE)) {
                if (constraintName != null && columnKeys != null) {
                    columnKeys.add(new Statement.KeyConstraint(false, List.of(col), constraintName));
                } else {
                    unique = true;
                }
            } else if (acceptKeyword(Keyword.DEFAULT)) {
                // a signed literal or a parenthesized expression, as in SQLite: a full expression
                // would swallow the constraints that follow ("DEFAULT 0 NOT NULL")
                int start = peek().start; // not the value's own start: "(1 + 2)" keeps its parentheses
                // PostgreSQL's DEFAULT takes its b_expr: arithmetic and comparisons, never NOT/IS/AND
                defaultValue = Dialect.postgres() ? relational() : unary();
                defaultText = sql.substring(start, lastEnd());
            } else if (acceptKeyword(Keyword.CONSTRAINT)) {
                constraintName = name("constraint name");
                continue;
            } else if (peek().is(Keyword.CHECK) || peek().is(Keyword.REFERENCES)) {
                Statement.TableConstraint c = peek().is(Keyword.CHECK) ? checkConstraint(constraintName)
                        : references(constraintName, List.of(col));
                if (c.kind() == Statement.ConstraintKind.CHECK) { // a column's CHECK is named after it
                    c = new Statement.TableConstraint(c.name(), c.kind(), List.of(col), c.check(), c.checkText(), null, null,
                            null, null, false);
                }
                if (columnConstraints != null) {
                    columnConstraints.add(c);
                }
            } else if (peek().isKeyword("GENERATED") && identity == null) {
                identity = identityClause();
            } else {
                break;
            }
            constraintName = null;
        }
        return new Statement.ColumnDef(col, type, primary, notNull, unique, defaultValue, defaultText, identity);
    }

    /** A type name: one word, or DOUBLE PRECISION / CHARACTER VARYING, with an optional (length[, scale]). */
    private TypeName typeName() {
        Token first = peek();
        if (!isName(first)) {
            throw error("a type name");
        }
        pos++;
        if (first.text.equalsIgnoreCase("pg_catalog") && peek().is(Symbol.DOT) && isName(peek(1))) {
            pos++; // pg_catalog.regtype: the one schema of the built-in types
            first = next();
        }
        String base = first.text.toUpperCase(Locale.ROOT);
        if (first.is(Keyword.DOUBLE) && acceptKeyword(Keyword.PRECISION)) {
            base = "DOUBLE PRECISION";
        } else if (first.is(Keyword.CHARACTER) && acceptKeyword(Keyword.VARYING)) {
            base = "CHARACTER VARYING";
        }
        if (base.equals("INTERVAL")) {
            return new TypeName(intervalQualifier(base), -1, -1, first.start, lastEnd());
        }
        if (Dialect.postgres() && (base.equals("TIMESTAMP") || base.equals("TIME"))) {
            // PostgreSQL's TIMESTAMP [(p)] WITH[OUT] TIME ZONE: the precision comes first
            int length = -1;
            if (peek().is(Symbol.LPAREN)) {
                pos++;
                length = typeSize("a precision");
                expectSymbol(Symbol.RPAREN);
            }
            if ((peek().is(Keyword.WITH) || peek().isKeyword("WITHOUT")) && peek(1).isKeyword("TIME") && peek(2).isKeyword("ZONE")) {
                base += next().is(Keyword.WITH) ? " WITH TIME ZONE" : " WITHOUT TIME ZONE";
                pos += 2;
            }
            return new TypeName(arraySuffix(base), length, -1, first.start, lastEnd()); // arrays: timestamp[]
        }
        int length = -1;
        int scale = -1;
        if (acceptSymbol(Symbol.LPAREN)) {
            length = typeSize("a size");
            if (acceptSymbol(Symbol.COMMA)) {
                scale = typeSize("a scale");
            }
            expectSymbol(Symbol.RPAREN);
        }
        base = arraySuffix(base); // arrays
        return new TypeName(base, length, scale, first.start, lastEnd());
    }

    // ---- time (issue 25: INTERVAL literals, EXTRACT, CURRENT_DATE and its kin) ----

    /** The words that read the statement's time without parentheses (SQL's CURRENT_DATE, ...). */
    private static final Set<String> CLOCK_WORDS = Set.of("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME",
            "LOCALTIMESTAMP");
    private static final Set<String> INTERVAL_FIELDS = Set.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND");

    /** After INTERVAL: an optional qualifier {@code field [TO field]}, an optional precision; the type name as one text. */
    private String intervalQualifier(String base) {
        StringBuilder b = new StringBuilder(base);
        if (isName(peek()) && INTERVAL_FIELDS.contains(peek().text.toUpperCase(Locale.ROOT))) {
            b.append(' ').append(next().text.toUpperCase(Locale.ROOT));
            if (peek().is(Keyword.TO) && isName(peek(1)) && INTERVAL_FIELDS.contains(peek(1).text.toUpperCase(Locale.ROOT))) {
                pos++;
                b.append(" TO ").append(next().text.toUpperCase(Locale.ROOT));
            }
        }
        if (peek().is(Symbol.LPAREN) && peek(1).type == Token.Type.NUMBER && peek(2).is(Symbol.RPAREN)) {
            b.append('(').append(peek(1).text).append(')'); // the seconds' precision
            pos += 3;
        }
        return b.toString();
    }

    /** At TIMESTAMP: {@code WITH[OUT] TIME ZONE 'text'} follows (PostgreSQL's typed literal; the zone is UTC here). */
    private boolean timestampZoneLiteral() {
        return (peek(1).is(Keyword.WITH) || peek(1).isKeyword("WITHOUT")) && peek(2).isKeyword("TIME") && peek(3).isKeyword("ZONE")
                && peek(4).type == Token.Type.STRING && !isDoubleQuoted(peek(4));
    }

    /** {@code INTERVAL 'text' [qualifier]}: a typed literal whose type name carries the qualifier. */
    private Expr intervalLiteral(Token t, Token text) {
        pos += 2;
        String base = intervalQualifier("INTERVAL");
        return new Expr.TypedLiteral(new TypeName(base, -1, -1, t.start, t.end), text.text, t.start, lastEnd());
    }

    /**
     * CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP without parentheses,
     * and {@code EXTRACT(field FROM x)}: calls; null when {@code t} starts none of them.
     */
    private Expr timeWord(Token t, Token after) {
        String w = t.text.toUpperCase(Locale.ROOT);
        if (CLOCK_WORDS.contains(w) && !after.is(Symbol.LPAREN) && !after.is(Symbol.DOT) && !isDoubleQuoted(t)) {
            pos++;
            return new Expr.Function(w, List.of(), false, false, null, t.start, t.end);
        }
        if (w.equals("EXTRACT") && after.is(Symbol.LPAREN) && (isName(peek(2)) || peek(2).type == Token.Type.STRING)
                && peek(3).is(Keyword.FROM)) {
            Token field = peek(2);
            pos += 4;
            deeper();
            Expr x = expr();
            depth--;
            expectSymbol(Symbol.RPAREN);
            Expr unit = new Expr.Literal(Expr.LiteralKind.STRING, field.text, field.start, field.end);
            return new Expr.Function("EXTRACT", List.of(unit, x), false, false, null, t.start, lastEnd());
        }
        return null;
    }

    private int typeSize(String what) {
        Token t = peek();
        if (t.type != Token.Type.NUMBER || !isIntegral(t.text)) {
            throw error(what);
        }
        pos++;
        try {
            return Integer.parseInt(t.text);
        } catch (NumberFormatException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "syntax error: type size " + t.text + " is out of range");
        }
    }

    private Statement createIndex(boolean unique) {
        boolean ifNotExists = ifNotExists();
        String index = name("index name");
        expectKeyword(Keyword.ON);
        String table = name("table name");
        expectSymbol(Symbol.LPAREN);
        List<Statement.IndexColumn> columns = new ArrayList<>();
        do {
            String col = name("column name");
            boolean desc = false;
            if (acceptKeyword(Keyword.DESC)) {
                desc = true;
            } else {
                acceptKeyword(Keyword.ASC);
            }
            columns.add(new Statement.IndexColumn(col, desc));
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        return new Statement.CreateIndex(index, table, columns, unique, ifNotExists);
    }

    private Statement createView() {
        boolean ifNotExists = ifNotExists();
        String view = name("view name");
        List<String> columnNames = peek().is(Symbol.LPAREN) ? nameList("column name") : null;
        expectKeyword(Keyword.AS);
        int start = peek().start;
        Query q = query();
        return new Statement.CreateView(view, columnNames, q, sql.substring(start, lastEnd()), ifNotExists);
    }

    private Statement drop() {
        if (acceptKeyword(Keyword.TABLE)) {
            boolean ifExists = ifExists();
            if (!Dialect.postgres()) {
                return new Statement.DropTable(name("table name"), ifExists);
            }
            List<String> tables = new ArrayList<>();
            do {
                tables.add(name("table name"));
            } while (acceptSymbol(Symbol.COMMA));
            return new Statement.DropTable(tables, ifExists, cascadeOption());
        }
        if (acceptKeyword(Keyword.INDEX)) {
            boolean ifExists = ifExists();
            return new Statement.DropIndex(name("index name"), ifExists);
        }
        if (acceptKeyword(Keyword.VIEW)) {
            boolean ifExists = ifExists();
            return new Statement.DropView(name("view name"), ifExists);
        }
        throw error("TABLE, INDEX or VIEW after DROP");
    }

    private Statement insert() {
        expectKeyword(Keyword.INTO);
        String table = name("table name");
        // INSERT INTO t AS x: the alias names the table in ON CONFLICT ... and RETURNING
        String alias = acceptKeyword(Keyword.AS) ? name("alias") : null;
        List<String> columns = null;
        if (peek().is(Symbol.LPAREN) && !startsQuery(pos)) {
            columns = nameList("column name");
        }
        Statement.Overriding overriding = overriding();
        List<List<Expr>> rows = null;
        Query q = null;
        if (columns == null && peek().is(Keyword.DEFAULT) && peek(1).is(Keyword.VALUES)) {
            pos += 2; // DEFAULT VALUES: one row, every column its DEFAULT
            columns = List.of();
            rows = List.of(List.of());
        } else if (acceptKeyword(Keyword.VALUES)) {
            rows = new ArrayList<>();
            do {
                expectSymbol(Symbol.LPAREN);
                List<Expr> values = new ArrayList<>();
                do {
                    values.add(insertValue());
                } while (acceptSymbol(Symbol.COMMA));
                expectSymbol(Symbol.RPAREN);
                rows.add(values);
            } while (acceptSymbol(Symbol.COMMA));
        } else if (peek().is(Keyword.SELECT) || peek().is(Keyword.SCANSELECT) || startsQuery(pos)) {
            q = query();
        } else {
            throw error("VALUES or SELECT");
        }
        boolean returnSize = false;
        if (acceptKeyword(Keyword.RETURN)) {
            expectKeyword(Keyword.SIZE);
            returnSize = true;
        }
        Statement.OnConflict conflict = returnSize ? null : onConflict();
        List<Query.SelectItem> returning = returnSize ? null : returning();
        return new Statement.Insert(table, columns, rows, q, returnSize, alias, conflict, returning, overriding);
    }

    private Statement update() {
        String table = name("table name");
        String alias = writeAlias();
        expectKeyword(Keyword.SET);
        List<Statement.Assignment> sets = assignments();
        Query.FromItem from = acceptKeyword(Keyword.FROM) ? fromList() : null;
        Expr where = optionalWhere();
        List<Query.SelectItem> returning = returning();
        if (alias == null && from == null && returning == null) {
            return new Statement.Update(table, sets, where);
        }
        return new Statement.Update(table, alias, sets, from, where, returning);
    }

    private List<Statement.Assignment> assignments() {
        List<Statement.Assignment> sets = new ArrayList<>();
        do {
            if (Dialect.postgres() && peek().is(Symbol.LPAREN)) {
                multiAssignment(sets);
                continue;
            }
            Token colToken = peek();
            String col = name("column name");
            if (peek().is(Symbol.LBRACKET)) { // arrays: SET col[i] = x
                sets.add(elementAssignment(colToken, col));
                continue;
            }
            expectSymbol(Symbol.EQ);
            sets.add(new Statement.Assignment(col, defaultOr(true)));
        } while (acceptSymbol(Symbol.COMMA));
        return sets;
    }

    /** {@code SET (a, b) = [ROW] (x, y)}: one assignment per column (PostgreSQL's dialect). */
    private void multiAssignment(List<Statement.Assignment> sets) {
        List<String> cols = nameList("column name");
        expectSymbol(Symbol.EQ);
        acceptKeyword(Keyword.ROW);
        if (startsQuery(pos)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "SET (columns) = (SELECT ...) is not supported");
        }
        expectSymbol(Symbol.LPAREN);
        List<Expr> values = new ArrayList<>();
        do {
            values.add(defaultOr(false));
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        if (values.size() != cols.size()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "number of columns does not match number of values");
        }
        for (int i = 0; i < cols.size(); i++) {
            sets.add(new Statement.Assignment(cols.get(i), values.get(i)));
        }
    }

    /**
     * A SET value, or {@code DEFAULT} alone: null, the column's default. In both dialects: the 2010
     * one reads a bare word as text, and stored the word "DEFAULT" where the column's default was meant.
     */
    private Expr defaultOr(boolean setValue) {
        if (peek().is(Keyword.DEFAULT) && (setValue ? endsValueAt(pos + 1, true)
                : peek(1).is(Symbol.COMMA) || peek(1).is(Symbol.RPAREN))) {
            pos++;
            return null;
        }
        return setValue ? setValue() : expr();
    }

    // ---- writes (upsert) ----------------------------------------------------------------------

    private Statement delete() {
        expectKeyword(Keyword.FROM);
        String table = name("table name");
        String alias = writeAlias();
        Query.FromItem using = acceptKeyword(Keyword.USING) ? fromList() : null;
        Expr where = optionalWhere();
        List<Query.SelectItem> returning = returning();
        if (alias == null && using == null && returning == null) {
            return new Statement.Delete(table, where);
        }
        return new Statement.Delete(table, alias, using, where, returning);
    }

    /** {@code [AS] alias} after UPDATE's or DELETE's table (PostgreSQL's dialect only: the 2010 one has none). */
    private String writeAlias() {
        if (!Dialect.postgres() && !peek().is(Keyword.AS)) {
            return null;
        }
        return optionalAlias(false);
    }

    /**
     * A value of INSERT's VALUES: {@code DEFAULT} alone is null, the column's default (both dialects:
     * the 2010 one stored the bare word as the text "DEFAULT").
     */
    private Expr insertValue() {
        if (peek().is(Keyword.DEFAULT) && (peek(1).is(Symbol.COMMA) || peek(1).is(Symbol.RPAREN))) {
            pos++;
            return null;
        }
        return listValue();
    }

    /** {@code RETURNING * | expr [[AS] name], ...}, or null when none follows. */
    private List<Query.SelectItem> returning() {
        if (!acceptKeyword(Keyword.RETURNING)) {
            return null;
        }
        List<Query.SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (acceptSymbol(Symbol.COMMA));
        return items;
    }

    /** {@code ON CONFLICT [(cols) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET ... [WHERE ...]}, or null. */
    private Statement.OnConflict onConflict() {
        if (!(peek().is(Keyword.ON) && peek(1).is(Keyword.CONFLICT))) {
            return null;
        }
        pos += 2;
        List<String> columns = null;
        String constraint = null;
        if (peek().is(Symbol.LPAREN)) {
            columns = nameList("column name");
            if (peek().is(Keyword.WHERE)) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ON CONFLICT (...) WHERE (a partial index's predicate) is not supported");
            }
        } else if (acceptKeyword(Keyword.ON)) {
            expectKeyword(Keyword.CONSTRAINT);
            constraint = name("constraint name");
        }
        expectKeyword(Keyword.DO);
        if (acceptKeyword(Keyword.NOTHING)) {
            return new Statement.OnConflict(columns, constraint, null, null);
        }
        expectKeyword(Keyword.UPDATE);
        if (columns == null && constraint == null) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "ON CONFLICT DO UPDATE requires inference specification or constraint name");
        }
        expectKeyword(Keyword.SET);
        List<Statement.Assignment> sets = assignments();
        return new Statement.OnConflict(columns, constraint, sets, optionalWhere());
    }

    private Expr optionalWhere() {
        return acceptKeyword(Keyword.WHERE) ? expr() : null;
    }

    // ---- 2010 unquoted values ----------------------------------------------------------------

    /**
     * A value inside INSERT's VALUES (...) or an IN (...) list. 2010 clients sent unquoted text,
     * possibly with spaces or punctuation, so the old parser's rule holds: an arithmetic
     * expression up to the next {@code ,} or {@code )} is a value; so is any other expression
     * that names no column ({@code 1 < 2}, {@code NULL IS NULL}); anything else is taken verbatim
     * ({@code marie anne}, {@code rock and roll}, {@code x > 5}).
     */
    private Expr listValue() {
        return valueOrRaw(false);
    }

    /** The right side of SET col=...: the same rule, the text running to the next {@code ,} or WHERE. */
    private Expr setValue() {
        // PostgreSQL's dialect has no unquoted text: a SET value is an expression (a name is a column)
        return Dialect.postgres() ? expr() : valueOrRaw(true);
    }

    /**
     * One parse, then the verbatim reading if the rule refuses it: reading an arithmetic
     * expression first and a wider one after (the old way) would parse nested lists twice per
     * level, exponential in their depth.
     */
    private Expr valueOrRaw(boolean inSet) {
        Token only = peek();
        if (only.type != Token.Type.SYMBOL && only.type != Token.Type.END && endsValueAt(pos + 1, inSet)) {
            return primary(); // one token, the usual 2010 value: no descent through every precedence level
        }
        int save = pos;
        int savedDepth = depth;
        int names = namesSeen;
        try {
            Expr e = expr();
            if (endsValue(inSet) && (namesSeen == names || isArithmetic(e) || isOneParenthesizedGroup(save, pos))) {
                return e;
            }
        } catch (SqlException notAnExpression) {
            if (notAnExpression == tooDeep) {
                throw notAnExpression;
            }
            // fall through to the verbatim reading
        }
        pos = save;
        depth = savedDepth;
        namesSeen = names;
        Token first = peek();
        int nesting = 0;
        while (true) {
            Token t = peek();
            if (t.type == Token.Type.END) {
                if (inSet) {
                    break;
                }
                throw error("')' to close the value list");
            }
            if (nesting == 0 && (inSet ? endsValue(true) : t.is(Symbol.COMMA) || t.is(Symbol.RPAREN))) {
                break;
            }
            if (t.is(Symbol.LPAREN)) {
                nesting++;
            } else if (t.is(Symbol.RPAREN)) {
                nesting--;
            }
            pos++;
        }
        if (pos == save) {
            throw error("a value");
        }
        return new Expr.Raw(sql.substring(first.start, lastEnd()), first.start, lastEnd());
    }

    /** What the old parser's arithmetic level produced: operands and + - * / % ||, not conditions. */
    private static boolean isArithmetic(Expr e) {
        if (e instanceof Expr.Unary u) {
            return u.op() != Expr.UnaryOp.NOT;
        }
        if (e instanceof Expr.Binary b) {
            return !b.op().isComparison() && b.op() != Expr.BinaryOp.AND && b.op() != Expr.BinaryOp.OR;
        }
        return e instanceof Expr.Literal || e instanceof Expr.TypedLiteral || e instanceof Expr.Column
                || e instanceof Expr.Function || e instanceof Expr.Case || e instanceof Expr.Cast
                || e instanceof Expr.ScalarQuery || e instanceof Expr.Exists;
    }

    /** Do tokens [from, to) form one parenthesized group, {@code (a > 5)}? (An operand, whatever is inside.) */
    private boolean isOneParenthesizedGroup(int from, int to) {
        if (!tokens.get(from).is(Symbol.LPAREN)) {
            return false;
        }
        int nesting = 0;
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.is(Symbol.LPAREN)) {
                nesting++;
            } else if (t.is(Symbol.RPAREN) && --nesting == 0) {
                return i == to - 1;
            }
        }
        return false;
    }

    private boolean endsValue(boolean inSet) {
        return endsValueAt(pos, inSet);
    }

    private boolean endsValueAt(int i, boolean inSet) {
        Token t = tokens.get(Math.min(i, tokens.size() - 1));
        if (inSet) {
            // RETURNING ends a SET value in both dialects, FROM (UPDATE ... FROM) in PostgreSQL's only: 2010 text may hold "from"
            return t.is(Symbol.COMMA) || t.is(Keyword.WHERE) || t.type == Token.Type.END || t.is(Symbol.SEMICOLON)
                    || t.is(Keyword.RETURNING) || t.is(Keyword.FROM) && Dialect.postgres();
        }
        return t.is(Symbol.COMMA) || t.is(Symbol.RPAREN);
    }

    // ---- queries -----------------------------------------------------------------------------

    /** A full query: set operations over query terms, then ORDER BY / LIMIT over the whole; in PostgreSQL's dialect WITH first. */
    private Query query() {
        if (Dialect.postgres() && peek().is(Keyword.WITH)) {
            return with();
        }
        deeper();
        int start = peek().start;
        java.util.Map<String, Expr.Window> outerWindows = windowDefs;
        Query q = unionTerm();
        List<Query.OrderItem> orderBy = optionalOrderBy(); // may name the last SELECT's windows (ORDER BY rank() OVER w)
        windowDefs = outerWindows;
        Expr limit = null;
        Expr offset = null;
        if (acceptKeyword(Keyword.LIMIT)) {
            limit = expr();
            if (acceptKeyword(Keyword.OFFSET)) {
                offset = expr();
            } else if (acceptSymbol(Symbol.COMMA)) {
                // SQLite's LIMIT offset, count
                offset = limit;
                limit = expr();
            }
        } else if (acceptKeyword(Keyword.OFFSET)) {
            offset = expr();
        }
        depth--;
        if (orderBy.isEmpty() && limit == null && offset == null) {
            return q;
        }
        int end = lastEnd();
        if (q instanceof Query.SetOp s) {
            return new Query.SetOp(s.kind(), s.left(), s.right(), orderBy, limit, offset, start, end);
        }
        if (q instanceof Query.Select s && s.orderBy().isEmpty() && s.limit() == null && s.offset() == null) {
            return new Query.Select(s.distinct(), s.items(), s.from(), s.where(), s.groupBy(), s.having(),
                    orderBy, limit, offset, s.scan(), s.start(), end);
        }
        // VALUES ... ORDER BY, or (SELECT ... LIMIT 1) LIMIT 2: order the rows of the inner query
        Query.Derived inner = new Query.Derived(q, null, start, q instanceof Query.Values v ? v.end() : end);
        return new Query.Select(false, List.of(new Query.Star(null, start, start)), inner, null, List.of(), null,
                orderBy, limit, offset, false, start, end);
    }

    private Query unionTerm() {
        int entered = depth;
        int start = peek().start;
        Query left = intersectTerm();
        while (true) {
            Query.SetOpKind kind;
            if (acceptKeyword(Keyword.UNION)) {
                kind = acceptKeyword(Keyword.ALL) ? Query.SetOpKind.UNION_ALL : Query.SetOpKind.UNION;
            } else if (acceptKeyword(Keyword.EXCEPT)) {
                kind = Query.SetOpKind.EXCEPT;
            } else {
                break;
            }
            deeper();
            Query right = intersectTerm();
            left = new Query.SetOp(kind, left, right, List.of(), null, null, start, lastEnd());
        }
        depth = entered;
        return left;
    }

    private Query intersectTerm() {
        int entered = depth;
        int start = peek().start;
        Query left = queryPrimary();
        while (acceptKeyword(Keyword.INTERSECT)) {
            deeper();
            Query right = queryPrimary();
            left = new Query.SetOp(Query.SetOpKind.INTERSECT, left, right, List.of(), null, null, start, lastEnd());
        }
        depth = entered;
        return left;
    }

    private Query queryPrimary() {
        Token t = peek();
        if (t.is(Keyword.SELECT) || t.is(Keyword.SCANSELECT)) {
            return select();
        }
        if (t.is(Keyword.VALUES)) {
            return values();
        }
        if (t.is(Symbol.LPAREN)) {
            pos++;
            Query q = query();
            expectSymbol(Symbol.RPAREN);
            return q;
        }
        throw error("SELECT, VALUES or '('");
    }

    private Query values() {
        Token first = next(); // VALUES
        List<List<Expr>> rows = new ArrayList<>();
        do {
            expectSymbol(Symbol.LPAREN);
            rows.add(exprList());
            expectSymbol(Symbol.RPAREN);
        } while (acceptSymbol(Symbol.COMMA));
        return new Query.Values(rows, first.start, lastEnd());
    }

    /** SELECT ... [FROM] [WHERE] [GROUP BY] [HAVING]; ORDER BY and LIMIT belong to {@link #query}. */
    private Query.Select select() {
        Token first = next();
        int windowClauseEnd = namedWindows();
        boolean into = intoAllowed;
        intoAllowed = false; // only the statement's first SELECT may have INTO
        boolean scan = first.is(Keyword.SCANSELECT);
        boolean distinct = false;
        if (acceptKeyword(Keyword.DISTINCT)) {
            distinct = true;
        } else {
            acceptKeyword(Keyword.ALL);
        }
        List<Query.SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (acceptSymbol(Symbol.COMMA));
        if (into && peek().is(Keyword.INTO)) {
            selectIntoTarget(); // PostgreSQL's SELECT ... INTO t FROM ...: CREATE TABLE t AS
        }
        if (items.get(items.size() - 1) instanceof Query.Star && peek().type == Token.Type.IDENT && peek().keyword() == null) {
            expectKeyword(Keyword.FROM); // "SELECT * FORM t": a star takes no alias, so a word here is a misspelt FROM
        }
        Query.FromItem from = null;
        if (acceptKeyword(Keyword.FROM)) {
            from = fromList();
        }
        Expr where = optionalWhere();
        List<Expr> groupBy = List.of();
        if (acceptKeyword(Keyword.GROUP)) {
            expectKeyword(Keyword.BY);
            groupBy = groupByList();
        }
        Expr having = acceptKeyword(Keyword.HAVING) ? expr() : null;
        if (windowClauseEnd >= 0 && peek().is(Keyword.WINDOW)) {
            pos = windowClauseEnd; // parsed ahead by namedWindows()
        }
        return new Query.Select(distinct, items, from, where, groupBy, having, List.of(), null, null, scan,
                first.start, lastEnd());
    }

    private Query.SelectItem selectItem() {
        Token t = peek();
        if (t.is(Symbol.STAR)) {
            pos++;
            return new Query.Star(null, t.start, t.end);
        }
        if (isName(t) && peek(1).is(Symbol.DOT) && peek(2).is(Symbol.STAR)) {
            pos += 3;
            return new Query.Star(t.text, t.start, lastEnd());
        }
        Expr e = expr();
        return new Query.Item(e, optionalAlias(true));
    }

    /** {@code [AS] alias}; without AS only a word that cannot continue the statement (or a string for a column). */
    private String optionalAlias(boolean stringAllowed) {
        if (acceptKeyword(Keyword.AS)) {
            Token t = peek();
            if (isName(t) || t.type == Token.Type.STRING) {
                pos++;
                return t.text;
            }
            throw error("an alias after AS");
        }
        Token t = peek();
        if (t.type == Token.Type.IDENT && (t.keyword() == null || !NOT_AN_IMPLICIT_ALIAS.contains(t.keyword()))
                && !((t.is(Keyword.INTO) || t.is(Keyword.WITH)) && Dialect.postgres())
                || stringAllowed && t.type == Token.Type.STRING || isDoubleQuoted(t)) {
            pos++;
            return t.text;
        }
        return null;
    }

    /** FROM a, b, c: a left-deep tree of CROSS joins. */
    private Query.FromItem fromList() {
        int entered = depth;
        Query.FromItem left = joinTree();
        while (acceptSymbol(Symbol.COMMA)) {
            deeper(); // the tree is as deep as the list is long
            Query.FromItem right = joinTree();
            left = new Query.Join(Query.JoinKind.CROSS, left, right, null, List.of(), false);
        }
        depth = entered;
        return left;
    }

    private Query.FromItem joinTree() {
        int entered = depth;
        Query.FromItem left = tablePrimary();
        while (true) {
            boolean natural = acceptKeyword(Keyword.NATURAL);
            Query.JoinKind kind;
            if (acceptKeyword(Keyword.JOIN)) {
                kind = Query.JoinKind.INNER;
            } else if (acceptKeyword(Keyword.INNER)) {
                expectKeyword(Keyword.JOIN);
                kind = Query.JoinKind.INNER;
            } else if (acceptKeyword(Keyword.CROSS)) {
                expectKeyword(Keyword.JOIN);
                kind = Query.JoinKind.CROSS;
            } else if (peek().is(Keyword.LEFT) || peek().is(Keyword.RIGHT) || peek().is(Keyword.FULL)) {
                Token side = next();
                kind = side.is(Keyword.LEFT) ? Query.JoinKind.LEFT
                        : side.is(Keyword.RIGHT) ? Query.JoinKind.RIGHT : Query.JoinKind.FULL;
                acceptKeyword(Keyword.OUTER);
                expectKeyword(Keyword.JOIN);
            } else if (natural) {
                throw error("JOIN after NATURAL");
            } else {
                break;
            }
            deeper();
            Query.FromItem right = tablePrimary();
            Expr on = null;
            List<String> using = List.of();
            if (!natural && kind != Query.JoinKind.CROSS) {
                if (acceptKeyword(Keyword.ON)) {
                    on = expr();
                } else if (acceptKeyword(Keyword.USING)) {
                    using = nameList("column name");
                }
            }
            left = new Query.Join(kind, left, right, on, using, natural);
        }
        depth = entered;
        return left;
    }

    private Query.FromItem tablePrimary() {
        Token t = peek();
        if (t.is(Symbol.LPAREN)) {
            if (startsQuery(pos)) {
                // (SELECT ...) alias, or a join tree that begins with one: try the first, then the other
                int save = pos;
                int savedDepth = depth;
                int names = namesSeen;
                try {
                    pos++;
                    Query q = query();
                    expectSymbol(Symbol.RPAREN);
                    int end = lastEnd();
                    String alias = optionalAlias(false);
                    // PostgreSQL's column aliases: (SELECT ...) AS t(a, b)
                    List<String> columns = alias != null && peek().is(Symbol.LPAREN) ? nameList("column alias") : List.of();
                    return new Query.Derived(q, alias, columns, t.start, columns.isEmpty() ? end : lastEnd());
                } catch (SqlException notADerivedTable) {
                    if (notADerivedTable == tooDeep) {
                        throw notADerivedTable;
                    }
                    pos = save;
                    depth = savedDepth;
                    namesSeen = names;
                }
            }
            pos++;
            deeper();
            Query.FromItem inner = fromList();
            depth--;
            expectSymbol(Symbol.RPAREN);
            return inner;
        }
        if (Dialect.postgres() && isName(t) && peek(1).is(Symbol.LPAREN)) {
            return fromFunction();
        }
        boolean only = Dialect.postgres() && t.isKeyword("ONLY") && !isDoubleQuoted(t) && isName(peek(1)) && pos++ >= 0; // partition
        String table = name("table name");
        if (peek().is(Symbol.DOT) && isName(peek(1))) {
            pos++;
            table = table + "." + name("table name"); // schema.table: pg_catalog, information_schema, public
        }
        if (only) {
            acceptSymbol(Symbol.STAR);
            table = Statement.ONLY + table;
        }
        String alias = optionalAlias(false);
        if (alias != null && Dialect.postgres() && peek().is(Symbol.LPAREN)) {
            return aliasedTable(table, alias, t.start); // regress25: t AS x (a, b)
        }
        int end = lastEnd();
        // SQLite's index hints (NOT INDEXED, INDEXED BY i): they change no result, so they are read and dropped
        if (peek().is(Keyword.NOT) && peek(1).is(Keyword.INDEXED)) {
            pos += 2;
        } else if (acceptKeyword(Keyword.INDEXED)) {
            expectKeyword(Keyword.BY);
            name("index name");
        }
        return new Query.TableRef(table, alias, t.start, end);
    }

    // ---- with ----

    /**
     * {@code WITH ... INSERT | UPDATE | DELETE}: the CTEs (queries) become part of what the write reads: an
     * INSERT's query is wrapped in them; an UPDATE's FROM or a DELETE's USING item naming a CTE becomes a
     * derived table {@code (WITH ... SELECT * FROM name) name}. Null (nothing consumed) when the WITH
     * heads a query. The statement stays an ordinary INSERT, UPDATE or DELETE (logged, replicated and
     * undone as one).
     */
    private Statement withWrite() {
        int save = pos;
        Query.With head;
        try {
            head = withHead();
        } catch (SqlException notAWrite) {
            pos = save;
            return null;
        }
        Token t = peek();
        if (!t.is(Keyword.INSERT) && !t.is(Keyword.UPDATE) && !t.is(Keyword.DELETE)) {
            pos = save;
            return null;
        }
        pos++;
        if (t.is(Keyword.INSERT)) {
            Statement.Insert ins = (Statement.Insert) insert();
            if (ins.query() == null) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "WITH before INSERT ... VALUES is not supported: use INSERT ... SELECT");
            }
            return new Statement.Insert(ins.table(), ins.columns(), ins.rows(), new Query.With(head.ctes(), head.recursive(),
                    ins.query(), head.start(), lastEnd()), ins.returnSize(), ins.alias(), ins.onConflict(), ins.returning(),
                    ins.overriding());
        }
        int body = pos;
        if (t.is(Keyword.UPDATE)) {
            Statement.Update u = (Statement.Update) update();
            onlyFromReadsCtes(head, body, u.from());
            return new Statement.Update(u.table(), u.alias(), u.assignments(), withCtes(u.from(), head), u.where(), u.returning());
        }
        Statement.Delete d = (Statement.Delete) delete();
        onlyFromReadsCtes(head, body, d.using());
        return new Statement.Delete(d.table(), d.alias(), withCtes(d.using(), head), d.where(), d.returning());
    }

    /**
     * Only an UPDATE's FROM or a DELETE's USING items become the WITH's queries ({@link #withCtes});
     * a WITH query named anywhere else in the statement (a subquery in WHERE, SET or RETURNING)
     * would be read as a table of that name, or not found: refused instead. Counted on the tokens:
     * a CTE's name as a word not followed by '.' (a qualifier) beyond the FROM/USING items naming it.
     */
    private void onlyFromReadsCtes(Query.With head, int from, Query.FromItem items) {
        int named = 0;
        for (int i = from; i < pos && i < tokens.size(); i++) {
            Token tk = tokens.get(i);
            if (tk.type != Token.Type.IDENT || i + 1 < tokens.size() && tokens.get(i + 1).is(Symbol.DOT)) {
                continue;
            }
            for (Query.Cte c : head.ctes()) {
                if (c.name().equalsIgnoreCase(tk.text)) {
                    named++;
                }
            }
        }
        if (named > cteRefs(items, head)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a WITH query read outside the FROM/USING list of an"
                    + " UPDATE or DELETE (in a subquery of WHERE, SET or RETURNING) is not supported yet: join it in"
                    + " UPDATE ... FROM / DELETE ... USING");
        }
    }

    /** How many table references among {@code f}'s items name one of {@code head}'s CTEs. */
    private static int cteRefs(Query.FromItem f, Query.With head) {
        if (f instanceof Query.TableRef t) {
            for (Query.Cte c : head.ctes()) {
                if (c.name().equalsIgnoreCase(t.name())) {
                    return 1;
                }
            }
        } else if (f instanceof Query.Join j) {
            return cteRefs(j.left(), head) + cteRefs(j.right(), head);
        }
        return 0;
    }

    /** {@code f} with each table reference to one of {@code head}'s CTEs made a derived table that holds the WITH. */
    private static Query.FromItem withCtes(Query.FromItem f, Query.With head) {
        if (f instanceof Query.TableRef t) {
            for (Query.Cte c : head.ctes()) {
                if (c.name().equalsIgnoreCase(t.name())) {
                    Query.Select all = new Query.Select(false, List.of(new Query.Star(null, t.start(), t.end())),
                            new Query.TableRef(t.name(), null, t.start(), t.end()), null, List.of(), null, List.of(), null, null,
                            false, t.start(), t.end());
                    return new Query.Derived(new Query.With(head.ctes(), head.recursive(), all, t.start(), t.end()),
                            t.alias() != null ? t.alias() : t.name(), t.start(), t.end());
                }
            }
            return f;
        } else if (f instanceof Query.Join j) {
            return new Query.Join(j.kind(), withCtes(j.left(), head), withCtes(j.right(), head), j.on(), j.using(), j.natural());
        }
        return f;
    }

    /** {@code INSERT | UPDATE | DELETE ...} as a WITH query (PostgreSQL's dialect), or null when none starts here. */
    private Query modifyingCte() {
        Token t = peek();
        if (!Dialect.postgres() || !(t.is(Keyword.INSERT) || t.is(Keyword.UPDATE) || t.is(Keyword.DELETE))) {
            return null;
        }
        pos++;
        Statement st = t.is(Keyword.INSERT) ? insert() : t.is(Keyword.UPDATE) ? update() : delete();
        return new Query.Modifying(st, t.start, lastEnd());
    }

    /** {@code name(args) [[AS] alias [(column)]]} in FROM: a set-returning function (PostgreSQL's dialect). */
    private Query.FromItem fromFunction() {
        Token t = peek();
        Expr e = primaryOperand();
        if (!(e instanceof Expr.Function f)) {
            throw error("a function call in FROM");
        }
        int end = lastEnd();
        String alias = optionalAlias(false);
        List<String> columns = alias != null && peek().is(Symbol.LPAREN) ? nameList("column alias") : List.of();
        return new Query.FunctionRef(f, alias, columns, t.start, columns.isEmpty() && alias == null ? end : lastEnd());
    }

    /** {@code WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (query), ... query}. */
    private Query with() {
        Query.With head = withHead();
        deeper();
        Query body = query();
        depth--;
        return new Query.With(head.ctes(), head.recursive(), body, head.start(), lastEnd());
    }

    /** {@code WITH [RECURSIVE] cte, ...} up to what follows it: a With whose body is null. */
    private Query.With withHead() {
        Token first = next(); // WITH
        deeper();
        boolean recursive = acceptKeyword(Keyword.RECURSIVE);
        List<Query.Cte> ctes = new ArrayList<>();
        do {
            String name = name("a WITH query name");
            List<String> columns = peek().is(Symbol.LPAREN) ? nameList("column name") : List.of();
            expectKeyword(Keyword.AS);
            if (peek().is(Keyword.NOT) && peek(1).isKeyword("MATERIALIZED")) {
                pos += 2; // a planner hint: the rows are the same either way
            } else if (peek().isKeyword("MATERIALIZED")) {
                pos++;
            }
            expectSymbol(Symbol.LPAREN);
            Query q = modifyingCte();
            if (q == null) {
                q = query();
            }
            expectSymbol(Symbol.RPAREN);
            ctes.add(new Query.Cte(name, columns, q));
        } while (acceptSymbol(Symbol.COMMA));
        depth--;
        return new Query.With(ctes, recursive, null, first.start, lastEnd());
    }

    /** Does a query start at {@code i}: after any opening parentheses, SELECT or VALUES (or WITH in PostgreSQL's dialect)? */
    private boolean startsQuery(int i) {
        while (i < tokens.size() && tokens.get(i).is(Symbol.LPAREN)) {
            i++;
        }
        Token t = tokens.get(Math.min(i, tokens.size() - 1));
        return t.is(Keyword.SELECT) || t.is(Keyword.SCANSELECT) || t.is(Keyword.VALUES) || t.is(Keyword.WITH) && Dialect.postgres();
    }

    private List<Query.OrderItem> optionalOrderBy() {
        if (!acceptKeyword(Keyword.ORDER)) {
            return List.of();
        }
        expectKeyword(Keyword.BY);
        return orderItems();
    }

    private List<Query.OrderItem> orderItems() {
        List<Query.OrderItem> items = new ArrayList<>();
        do {
            Expr e = expr();
            boolean desc = false;
            if (acceptKeyword(Keyword.DESC)) {
                desc = true;
            } else {
                acceptKeyword(Keyword.ASC);
            }
            Query.NullsOrder nulls = Query.NullsOrder.DEFAULT;
            if (acceptKeyword(Keyword.NULLS)) {
                if (acceptKeyword(Keyword.FIRST)) {
                    nulls = Query.NullsOrder.FIRST;
                } else if (acceptKeyword(Keyword.LAST)) {
                    nulls = Query.NullsOrder.LAST;
                } else {
                    throw error("FIRST or LAST after NULLS");
                }
            }
            items.add(new Query.OrderItem(e, desc, nulls));
        } while (acceptSymbol(Symbol.COMMA));
        return items;
    }

    // ---- expressions (lowest precedence first) ----------------------------------------------

    private Expr expr() {
        return or();
    }

    private List<Expr> exprList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expr());
        } while (acceptSymbol(Symbol.COMMA));
        return list;
    }

    private Expr or() {
        int entered = depth;
        deeper();
        Expr left = and();
        while (acceptKeyword(Keyword.OR)) {
            deeper(); // a chain a OR b OR c ... is a left-deep tree as deep as it is long
            Expr right = and();
            left = new Expr.Binary(Expr.BinaryOp.OR, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr and() {
        int entered = depth;
        Expr left = not();
        while (acceptKeyword(Keyword.AND)) {
            deeper();
            Expr right = not();
            left = new Expr.Binary(Expr.BinaryOp.AND, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr not() {
        Token t = peek();
        if (t.is(Keyword.NOT) && !peek(1).is(Keyword.EXISTS)) {
            pos++;
            deeper();
            Expr e = not();
            depth--;
            return new Expr.Unary(Expr.UnaryOp.NOT, e, t.start, e.end());
        }
        return equality();
    }

    /** = == != <> IS [NOT] [DISTINCT FROM] IN LIKE BETWEEN ISNULL NOTNULL NOT NULL, left-associative. */
    private Expr equality() {
        int entered = depth;
        Expr left = relational();
        while (true) {
            Token t = peek();
            int start = left.start();
            Expr e;
            if ((t.is(Symbol.EQ) || t.is(Symbol.NE)) && quantifiedAt(1)) {
                pos++;
                e = quantified(left, t.is(Symbol.EQ) ? Expr.BinaryOp.EQ : Expr.BinaryOp.NE); // arrays
            } else if (t.is(Symbol.EQ) || t.is(Symbol.NE)) {
                pos++;
                Expr right = relational();
                e = new Expr.Binary(t.is(Symbol.EQ) ? Expr.BinaryOp.EQ : Expr.BinaryOp.NE, left, right, start, right.end());
            } else if (t.is(Keyword.IS)) {
                pos++;
                boolean not = acceptKeyword(Keyword.NOT);
                if (acceptKeyword(Keyword.NULL) || Dialect.postgres() && peek().isKeyword("UNKNOWN") && next() != null) {
                    // PostgreSQL's x IS [NOT] UNKNOWN is x IS [NOT] NULL (of a boolean)
                    e = new Expr.IsNull(left, not, start, lastEnd());
                } else {
                    if (acceptKeyword(Keyword.DISTINCT)) {
                        expectKeyword(Keyword.FROM);
                        Expr right = relational();
                        e = new Expr.IsDistinct(left, right, not, start, right.end());
                    } else {
                        // SQLite's x IS y: true when not distinct
                        Expr right = relational();
                        e = new Expr.IsDistinct(left, right, !not, start, right.end());
                    }
                }
            } else if (regexOperator(t) != null) {
                e = regexMatch(left, start);
            } else if (similarAt(0) || t.is(Keyword.NOT) && similarAt(1)) {
                e = similarTo(left, start); // textfn
            } else if (t.is(Keyword.ISNULL) || t.is(Keyword.NOTNULL)) {
                pos++;
                e = new Expr.IsNull(left, t.is(Keyword.NOTNULL), start, t.end);
            } else if (t.is(Keyword.NOT) && peek(1).is(Keyword.NULL)) {
                pos += 2;
                e = new Expr.IsNull(left, true, start, lastEnd());
            } else if (t.is(Keyword.BETWEEN) || t.is(Keyword.IN) || t.is(Keyword.LIKE) || isIlike(t)
                    || t.is(Keyword.NOT) && (peek(1).is(Keyword.BETWEEN) || peek(1).is(Keyword.IN) || peek(1).is(Keyword.LIKE)
                    || isIlike(peek(1)))) {
                boolean negated = acceptKeyword(Keyword.NOT);
                Token op = next();
                if (isIlike(op)) {
                    Expr pattern = relational();
                    Expr escape = acceptKeyword(Keyword.ESCAPE) ? relational() : null;
                    e = new Expr.Like(left, pattern, escape, negated, true, start, lastEnd());
                } else if (op.is(Keyword.BETWEEN)) {
                    Expr low = relational();
                    expectKeyword(Keyword.AND);
                    Expr high = relational();
                    e = new Expr.Between(left, low, high, negated, start, high.end());
                } else if (op.is(Keyword.LIKE)) {
                    Expr pattern = relational();
                    Expr escape = acceptKeyword(Keyword.ESCAPE) ? relational() : null;
                    e = new Expr.Like(left, pattern, escape, negated, start, lastEnd());
                } else {
                    e = inRightSide(left, negated);
                }
            } else {
                break;
            }
            deeper();
            left = e;
        }
        depth = entered;
        return left;
    }

    // ---- catalog queries: regular-expression operators (pgcopy) ----

    /**
     * The regex operator at {@code t}: {@code ~ !~ ~* !~*}, or {@code OPERATOR(pg_catalog.~)} as
     * psql writes it (its text); null when there is none.
     */
    private Symbol regexOperator(Token t) {
        if (t.type == Token.Type.SYMBOL) {
            return t.is(Symbol.TILDE) || t.is(Symbol.NOT_TILDE) || t.is(Symbol.TILDE_STAR) || t.is(Symbol.NOT_TILDE_STAR)
                    ? t.symbol() : null;
        }
        if (t.type == Token.Type.IDENT && t.text.equalsIgnoreCase("OPERATOR") && peek(1).is(Symbol.LPAREN)) {
            int k = 2;
            if (isName(peek(k)) && peek(k + 1).is(Symbol.DOT)) {
                k += 2;
            }
            Token op = peek(k);
            Symbol s = op.type == Token.Type.SYMBOL ? op.symbol() : null;
            if (peek(k + 1).is(Symbol.RPAREN) && s != null
                    && (s == Symbol.TILDE || s == Symbol.NOT_TILDE || s == Symbol.TILDE_STAR || s == Symbol.NOT_TILDE_STAR)) {
                return s;
            }
        }
        return null;
    }

    /** {@code left ~ pattern [COLLATE name]}: a call of the match function, negated for {@code !~}. */
    private Expr regexMatch(Expr left, int start) {
        Symbol op = regexOperator(peek());
        if (peek().type == Token.Type.SYMBOL) {
            pos++;
        } else {
            while (!next().is(Symbol.RPAREN)) {
                // OPERATOR(schema.op)
            }
        }
        Expr pattern = relational();
        if (acceptKeyword(Keyword.COLLATE)) {
            name("collation");
            if (acceptSymbol(Symbol.DOT)) {
                next(); // pg_catalog.default: "default" is a keyword
            }
        }
        boolean caseless = op == Symbol.TILDE_STAR || op == Symbol.NOT_TILDE_STAR;
        Expr call = new Expr.Function(caseless ? "REGEX_MATCH_CASELESS" : "REGEX_MATCH", List.of(left, pattern), false,
                false, null, start, lastEnd());
        if (op == Symbol.NOT_TILDE || op == Symbol.NOT_TILDE_STAR) {
            return new Expr.Unary(Expr.UnaryOp.NOT, call, start, lastEnd());
        }
        return call;
    }

    // ---- textfn ----

    /** PostgreSQL's SIMILAR TO at {@code k} tokens ahead (words of its dialect only). */
    private boolean similarAt(int k) {
        Token t = peek(k);
        return t.type == Token.Type.IDENT && t.keyword() == null && Dialect.postgres() && t.isKeyword("SIMILAR")
                && peek(k + 1).isKeyword("TO");
    }

    /** {@code left [NOT] SIMILAR TO pattern [ESCAPE e]}: a call of SIMILAR_TO_MATCH, negated for NOT. */
    private Expr similarTo(Expr left, int start) {
        boolean negated = acceptKeyword(Keyword.NOT);
        pos += 2; // SIMILAR TO
        Expr pattern = relational();
        List<Expr> args = acceptKeyword(Keyword.ESCAPE) ? List.of(left, pattern, relational()) : List.of(left, pattern);
        Expr call = new Expr.Function("SIMILAR_TO_MATCH", args, false, false, null, start, lastEnd());
        return negated ? new Expr.Unary(Expr.UnaryOp.NOT, call, start, lastEnd()) : call;
    }

    /** {@code overlay(x PLACING y FROM n [FOR m])} as OVERLAY(x, y, n[, m]); null when not in that form. */
    private Expr overlayCall(Token nameToken) {
        int at = pos;
        Expr x = expr();
        if (!peek().isKeyword("PLACING")) {
            pos = at;
            return null;
        }
        pos++;
        Expr y = expr();
        expectKeyword(Keyword.FROM);
        Expr n = expr();
        Expr m = null;
        if (peek().isKeyword("FOR")) {
            pos++;
            m = expr();
        }
        expectSymbol(Symbol.RPAREN);
        List<Expr> args = m == null ? List.of(x, y, n) : List.of(x, y, n, m);
        return new Expr.Function("OVERLAY", args, false, false, null, nameToken.start, lastEnd());
    }

    // ---- end textfn ----

    /** PostgreSQL's ILIKE (a word of its dialect only: elsewhere it may name a column). */
    private static boolean isIlike(Token t) {
        return t.type == Token.Type.IDENT && t.keyword() == null && Dialect.postgres() && t.isKeyword("ILIKE");
    }

    /** After IN: (list), (), (SELECT ...), or SQLite's bare table name. */
    private Expr inRightSide(Expr left, boolean negated) {
        int start = left.start();
        Token t = peek();
        if (isName(t)) {
            // x IN t: SQLite's short form of x IN (SELECT * FROM t)
            pos++;
            String table = t.text;
            Query q = new Query.Select(false, List.of(new Query.Star(null, t.start, t.end)),
                    new Query.TableRef(table, null, t.start, t.end), null, List.of(), null, List.of(), null, null,
                    false, t.start, t.end);
            return new Expr.InQuery(left, q, negated, start, t.end);
        }
        expectSymbol(Symbol.LPAREN);
        if (!Dialect.postgres() && acceptSymbol(Symbol.RPAREN)) {
            return new Expr.InList(left, List.of(), negated, start, lastEnd()); // SQLite's IN (); PostgreSQL's syntax error
        }
        if (startsQuery(pos)) {
            Query q = tryQueryBeforeParen();
            if (q != null) {
                return new Expr.InQuery(left, q, negated, start, lastEnd());
            }
        }
        List<Expr> values = new ArrayList<>();
        do {
            values.add(listValue());
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        return new Expr.InList(left, values, negated, start, lastEnd());
    }

    /**
     * Inside an opening parenthesis already taken, where {@link #startsQuery} holds: a query and
     * the closing parenthesis. Where more parentheses come first, the text may instead be an
     * expression that begins with a parenthesized query ({@code ((SELECT 1) + 2)}): then null,
     * the position restored.
     */
    private Query tryQueryBeforeParen() {
        if (!peek().is(Symbol.LPAREN)) {
            Query q = query(); // a query right after the parenthesis: its own error is the useful one
            expectSymbol(Symbol.RPAREN);
            return q;
        }
        int save = pos;
        int savedDepth = depth;
        int names = namesSeen;
        try {
            Query q = query();
            expectSymbol(Symbol.RPAREN);
            return q;
        } catch (SqlException notAQuery) {
            if (notAQuery == tooDeep) {
                throw notAQuery;
            }
            pos = save;
            depth = savedDepth;
            namesSeen = names;
            return null;
        }
    }

    private Expr relational() {
        int entered = depth;
        Expr left = additive();
        while (true) {
            Token t = peek();
            Expr.BinaryOp op = t.is(Symbol.LT) ? Expr.BinaryOp.LT : t.is(Symbol.LE) ? Expr.BinaryOp.LE
                    : t.is(Symbol.GT) ? Expr.BinaryOp.GT : t.is(Symbol.GE) ? Expr.BinaryOp.GE : null;
            if (t.is(Symbol.CONTAINS) || t.is(Symbol.CONTAINED_BY) || t.is(Symbol.OVERLAPS)) { // arrays
                pos++;
                deeper();
                Expr right = additive();
                String fn = t.is(Symbol.CONTAINS) ? "ARRAY_CONTAINS" : t.is(Symbol.CONTAINED_BY) ? "ARRAY_CONTAINED" : "ARRAY_OVERLAP";
                left = new Expr.Function(fn, List.of(left, right), false, false, null, left.start(), right.end());
                continue;
            }
            if (op == null) {
                break;
            }
            pos++;
            if (quantifiedAt(0)) {
                left = quantified(left, op); // arrays
                continue;
            }
            deeper();
            Expr right = additive();
            left = new Expr.Binary(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr additive() {
        int entered = depth;
        Expr left = multiplicative();
        while (peek().is(Symbol.PLUS) || peek().is(Symbol.MINUS)) {
            Expr.BinaryOp op = next().is(Symbol.PLUS) ? Expr.BinaryOp.ADD : Expr.BinaryOp.SUB;
            deeper();
            Expr right = multiplicative();
            left = new Expr.Binary(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr multiplicative() {
        int entered = depth;
        Expr left = concat();
        while (peek().is(Symbol.STAR) || peek().is(Symbol.SLASH) || peek().is(Symbol.PERCENT)) {
            Symbol sym = next().symbol();
            Expr.BinaryOp op = sym == Symbol.STAR ? Expr.BinaryOp.MUL : sym == Symbol.SLASH ? Expr.BinaryOp.DIV
                    : Expr.BinaryOp.MOD;
            deeper();
            Expr right = concat();
            left = new Expr.Binary(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr concat() {
        int entered = depth;
        Expr left = unary();
        while (acceptSymbol(Symbol.CONCAT)) {
            deeper();
            Expr right = unary();
            left = new Expr.Binary(Expr.BinaryOp.CONCAT, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr unary() {
        Token t = peek();
        if (t.is(Symbol.MINUS) || t.is(Symbol.PLUS)) {
            pos++;
            deeper();
            Expr e = unary();
            depth--;
            return new Expr.Unary(t.is(Symbol.MINUS) ? Expr.UnaryOp.MINUS : Expr.UnaryOp.PLUS, e, t.start, e.end());
        }
        return primary();
    }

    /** A primary and PostgreSQL's postfix casts ({@code x::int::text}), which bind tighter than a sign. */
    private Expr primary() {
        Expr e = primaryOperand();
        while (true) {
            if (peek().is(Symbol.CAST)) {
                pos++;
                TypeName type = typeName();
                e = new Expr.Cast(e, type, e.start(), lastEnd());
            } else if (peek().is(Symbol.LBRACKET)) {
                e = subscripts(e); // arrays
            } else {
                break;
            }
        }
        return e;
    }

    private Expr primaryOperand() {
        Token t = peek();
        switch (t.type) {
            case END:
                throw error("a value or column name");
            case NUMBER:
                pos++;
                return new Expr.Literal(isIntegral(t.text) ? Expr.LiteralKind.INTEGER : Expr.LiteralKind.DECIMAL,
                        t.text, t.start, t.end);
            case STRING:
                pos++;
                if (isDoubleQuoted(t)) {
                    // a quoted name; the binder reads it as text where no such column exists (SQLite's rule)
                    return column(null, t.text, t.start, t.end);
                }
                return new Expr.Literal(Expr.LiteralKind.STRING, t.text, t.start, t.end);
            case SYMBOL:
                if (t.is(Symbol.LPAREN)) {
                    return parenthesized();
                }
                throw error("a value or column name");
            default:
                return word(t);
        }
    }

    private Expr parenthesized() {
        Token open = next();
        if (startsQuery(pos)) {
            Query q = tryQueryBeforeParen();
            if (q != null) {
                return new Expr.ScalarQuery(q, open.start, lastEnd());
            }
        }
        Expr e = expr(); // counts one level of depth
        expectSymbol(Symbol.RPAREN);
        return e;
    }

    /** A primary that begins with a word: a literal keyword, CASE, CAST, EXISTS, a call, or a name. */
    private Expr word(Token t) {
        Keyword kw = t.keyword();
        Token after = peek(1);
        if (t.isKeyword("ARRAY") && (after.is(Symbol.LBRACKET) || after.is(Symbol.LPAREN) && startsQuery(pos + 2))) {
            return arrayConstructor(t); // arrays
        }
        if (kw != null) {
            switch (kw) {
                case NULL:
                    pos++;
                    return new Expr.Literal(Expr.LiteralKind.NULL, t.text, t.start, t.end);
                case TRUE:
                    pos++;
                    return new Expr.Literal(Expr.LiteralKind.TRUE, t.text, t.start, t.end);
                case FALSE:
                    pos++;
                    return new Expr.Literal(Expr.LiteralKind.FALSE, t.text, t.start, t.end);
                case CASE:
                    if (after.is(Symbol.COMMA) || after.is(Symbol.RPAREN) || after.type == Token.Type.END) {
                        break; // a name: a 2010 value "case", a column called case
                    }
                    return caseExpr();
                case CAST:
                    if (after.is(Symbol.LPAREN)) {
                        return cast();
                    }
                    break;
                case EXISTS:
                    if (after.is(Symbol.LPAREN)) {
                        pos++;
                        return exists(t.start, false);
                    }
                    break;
                case NOT:
                    // NOT as an operand (a = NOT b, - NOT x): its operand runs as far as NOT's would
                    if (after.is(Keyword.EXISTS) && peek(2).is(Symbol.LPAREN)) {
                        pos += 2;
                        return exists(t.start, true);
                    }
                    if (after.type != Token.Type.END && !after.is(Symbol.COMMA) && !after.is(Symbol.RPAREN)) {
                        pos++;
                        deeper();
                        Expr e = not();
                        depth--;
                        return new Expr.Unary(Expr.UnaryOp.NOT, e, t.start, e.end());
                    }
                    break;
                case INTERVAL:
                    if (after.type == Token.Type.STRING && !isDoubleQuoted(after)) {
                        return intervalLiteral(t, after);
                    }
                    break;
                case TIMESTAMP:
                    if (timestampZoneLiteral()) {
                        Token v = peek(4);
                        pos += 5;
                        return new Expr.TypedLiteral(new TypeName("TIMESTAMP", -1, -1, t.start, t.end), v.text, t.start, v.end);
                    }
                    if (after.is(Symbol.LPAREN) && peek(2).type == Token.Type.NUMBER && peek(3).is(Symbol.RPAREN)) {
                        int save = pos;
                        pos += 3; // timestamp(p) [with[out] time zone] 'text': the precision is not applied
                        if (timestampZoneLiteral() || peek(1).type == Token.Type.STRING && !isDoubleQuoted(peek(1))) {
                            int skip = timestampZoneLiteral() ? 4 : 1;
                            Token v = peek(skip);
                            pos += skip + 1;
                            return new Expr.TypedLiteral(new TypeName("TIMESTAMP", -1, -1, t.start, t.end), v.text, t.start, v.end);
                        }
                        pos = save;
                    }
                    if (after.type == Token.Type.STRING && !isDoubleQuoted(after)) {
                        pos += 2;
                        TypeName type = new TypeName(kw.name(), -1, -1, t.start, t.end);
                        return new Expr.TypedLiteral(type, after.text, t.start, after.end);
                    }
                    break;
                case DATE:
                    if (after.type == Token.Type.STRING && !isDoubleQuoted(after)) {
                        pos += 2;
                        TypeName type = new TypeName(kw.name(), -1, -1, t.start, t.end);
                        return new Expr.TypedLiteral(type, after.text, t.start, after.end);
                    }
                    break;
                default:
                    break;
            }
        }
        if (Dialect.postgres() && after.type == Token.Type.STRING && !isDoubleQuoted(after) && PG_LITERAL_TYPES.contains(
                t.text.toUpperCase(Locale.ROOT))) {
            // PostgreSQL's typed literal: type 'text' (bool 't', int4 '5', float8 '1.5', ...)
            pos += 2;
            TypeName type = new TypeName(t.text.toUpperCase(Locale.ROOT), -1, -1, t.start, t.end);
            return new Expr.TypedLiteral(type, after.text, t.start, after.end);
        }
        if (Dialect.postgres() && t.is(Keyword.DOUBLE) && after.is(Keyword.PRECISION) && peek(2).type == Token.Type.STRING
                && !isDoubleQuoted(peek(2))) {
            Token v = peek(2);
            pos += 3;
            return new Expr.TypedLiteral(new TypeName("DOUBLE PRECISION", -1, -1, t.start, after.end), v.text, t.start, v.end);
        }
        if ((t.text.equals("x") || t.text.equals("X")) && after.type == Token.Type.STRING && after.start == t.end
                && !isDoubleQuoted(after)) {
            pos += 2;
            return blob(after, t.start);
        }
        Expr time = timeWord(t, after);
        if (time != null) {
            return time;
        }
        pos++;
        if (after.is(Symbol.LPAREN)) {
            return call(t);
        }
        if (acceptSymbol(Symbol.DOT)) {
            Token col = peek();
            if (!isName(col)) {
                throw error("a column name after '" + t.text + ".'");
            }
            pos++;
            if (peek().is(Symbol.LPAREN) && t.text.equalsIgnoreCase("pg_catalog")) {
                return call(col); // pg_catalog.format_type(...): the function
            }
            return column(t.text, col.text, t.start, col.end);
        }
        return column(null, t.text, t.start, t.end);
    }

    /**
     * SQLite's blob literal {@code x'303132'}: there is no blob type, so it is the text its bytes
     * spell (ASCII hex pairs), which is what SQLite compares it as against text.
     */
    private Expr blob(Token hex, int start) {
        String h = hex.text;
        if (h.length() % 2 != 0) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "syntax error: blob literal x'" + h + "' needs an even number of hex digits");
        }
        StringBuilder sb = new StringBuilder(h.length() / 2);
        for (int i = 0; i < h.length(); i += 2) {
            int hi = Character.digit(h.charAt(i), 16);
            int lo = Character.digit(h.charAt(i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "syntax error: blob literal x'" + h + "' has a character that is no hex digit");
            }
            sb.append((char) (hi * 16 + lo));
        }
        return new Expr.Literal(Expr.LiteralKind.STRING, sb.toString(), start, hex.end);
    }

    private Expr column(String qualifier, String name, int start, int end) {
        namesSeen++;
        return new Expr.Column(qualifier, name, start, end);
    }

    /** {@code [NOT] EXISTS (query)}, the position at the opening parenthesis. */
    private Expr exists(int start, boolean negated) {
        expectSymbol(Symbol.LPAREN);
        deeper();
        Query q = query();
        depth--;
        expectSymbol(Symbol.RPAREN);
        return new Expr.Exists(q, negated, start, lastEnd());
    }

    private Expr caseExpr() {
        Token first = next(); // CASE
        deeper();
        if (peek().is(Keyword.END)) {
            throw error("WHEN");
        }
        Expr operand = peek().is(Keyword.WHEN) ? null : expr();
        List<Expr.When> whens = new ArrayList<>();
        while (acceptKeyword(Keyword.WHEN)) {
            Expr cond = expr();
            expectKeyword(Keyword.THEN);
            whens.add(new Expr.When(cond, expr()));
        }
        if (whens.isEmpty()) {
            throw error("WHEN");
        }
        Expr otherwise = acceptKeyword(Keyword.ELSE) ? expr() : null;
        expectKeyword(Keyword.END);
        depth--;
        return new Expr.Case(operand, whens, otherwise, first.start, lastEnd());
    }

    private Expr cast() {
        Token first = next(); // CAST
        expectSymbol(Symbol.LPAREN);
        deeper();
        Expr operand = expr();
        expectKeyword(Keyword.AS);
        TypeName type = typeName();
        expectSymbol(Symbol.RPAREN);
        depth--;
        return new Expr.Cast(operand, type, first.start, lastEnd());
    }

    /**
     * The SQL-standard call forms PostgreSQL has: {@code TRIM([BOTH|LEADING|TRAILING] [chars] FROM x)},
     * {@code SUBSTRING(x FROM a [FOR b])}, {@code POSITION(a IN b)}, as plain calls (TRIM/LTRIM/RTRIM(x, chars),
     * SUBSTRING(x, a[, b]), POSITION(a, b)); null when the call is not in such a form (position unchanged).
     */
    private Expr standardCall(Token nameToken, String fn) {
        int at = pos; // after the '('
        if (fn.equals("TRIM")) {
            String which = "TRIM";
            if (peek().isKeyword("BOTH") || peek().isKeyword("LEADING") || peek().isKeyword("TRAILING")) {
                Token w = next();
                which = w.isKeyword("LEADING") ? "LTRIM" : w.isKeyword("TRAILING") ? "RTRIM" : "TRIM";
            } else if (!peek().is(Keyword.FROM) && !containsFromBeforeClose()) {
                return null;
            }
            Expr chars = null;
            if (!acceptKeyword(Keyword.FROM)) {
                chars = expr();
                if (!acceptKeyword(Keyword.FROM)) {
                    if (!which.equals("TRIM") || peek().is(Symbol.COMMA)) {
                        // trim(leading x): PostgreSQL's form with no FROM trims spaces from x
                        expectSymbol(Symbol.RPAREN);
                        return new Expr.Function(which, List.of(chars), false, false, null, nameToken.start, lastEnd());
                    }
                    pos = at;
                    return null;
                }
            }
            Expr x = expr();
            expectSymbol(Symbol.RPAREN);
            List<Expr> args = chars == null ? List.of(x) : List.of(x, chars);
            return new Expr.Function(which, args, false, false, null, nameToken.start, lastEnd());
        }
        if (fn.equals("SUBSTRING")) {
            Expr x = expr();
            if (Dialect.postgres() && peek().isKeyword("SIMILAR")) { // textfn: substring(x SIMILAR p ESCAPE e)
                pos++;
                Expr p = expr();
                expectKeyword(Keyword.ESCAPE);
                Expr esc = expr();
                expectSymbol(Symbol.RPAREN);
                return new Expr.Function("SUBSTRING", List.of(x, p, esc), false, false, null, nameToken.start, lastEnd());
            }
            if (!peek().is(Keyword.FROM) && !peek().isKeyword("FOR")) {
                pos = at;
                return null;
            }
            Expr from = acceptKeyword(Keyword.FROM) ? expr() : null;
            Expr count = null;
            if (peek().isKeyword("FOR")) {
                pos++;
                count = expr();
            }
            expectSymbol(Symbol.RPAREN);
            if (from == null) {
                from = new Expr.Literal(Expr.LiteralKind.INTEGER, "1", x.end(), x.end());
            }
            List<Expr> args = count == null ? List.of(x, from) : List.of(x, from, count);
            return new Expr.Function("SUBSTRING", args, false, false, null, nameToken.start, lastEnd());
        }
        if (fn.equals("POSITION")) {
            Expr needle = additive();
            if (!acceptKeyword(Keyword.IN)) {
                pos = at;
                return null;
            }
            Expr hay = expr();
            expectSymbol(Symbol.RPAREN);
            return new Expr.Function("POSITION", List.of(needle, hay), false, false, null, nameToken.start, lastEnd());
        }
        return null;
    }

    /** Whether a FROM comes before this call's closing parenthesis, at its own nesting level. */
    private boolean containsFromBeforeClose() {
        int level = 0;
        for (int i = pos; ; i++) {
            Token t = peek(i - pos);
            if (t.type == Token.Type.END) {
                return false;
            }
            if (t.is(Symbol.LPAREN)) {
                level++;
            } else if (t.is(Symbol.RPAREN)) {
                if (level-- == 0) {
                    return false;
                }
            } else if (level == 0 && t.is(Keyword.FROM)) {
                return true;
            }
        }
    }

    /** {@code name(args)}, {@code name(*)}, {@code name(DISTINCT x)}, then an optional OVER (...). */
    private Expr call(Token nameToken) {
        expectSymbol(Symbol.LPAREN);
        deeper();
        String fn = nameToken.text.toUpperCase(Locale.ROOT);
        if (fn.equals("OVERLAY") && Dialect.postgres()) { // textfn: overlay(x PLACING y FROM n [FOR m])
            Expr special = overlayCall(nameToken);
            if (special != null) {
                depth--;
                return special;
            }
        }
        if (fn.equals("TRIM") || fn.equals("SUBSTRING") || fn.equals("POSITION")) {
            Expr special = standardCall(nameToken, fn);
            if (special != null) {
                depth--;
                return special;
            }
        }
        boolean star = false;
        boolean distinct = false;
        List<Expr> args = List.of();
        if (acceptSymbol(Symbol.STAR)) {
            star = true;
        } else if (!peek().is(Symbol.RPAREN)) {
            if (acceptKeyword(Keyword.DISTINCT)) {
                distinct = true;
            } else {
                acceptKeyword(Keyword.ALL);
            }
            args = exprList();
        }
        List<Query.OrderItem> argOrder = peek().is(Keyword.ORDER) ? optionalOrderBy() : List.of();
        expectSymbol(Symbol.RPAREN);
        Expr.AggregateExtras extras = aggregateExtras(argOrder);
        Expr.Window over = null;
        if (peek().is(Keyword.OVER)) {
            over = over();
        }
        depth--;
        return new Expr.Function(fn, args, distinct, star, over, nameToken.start, lastEnd(), extras);
    }

    // ---- agg ----

    /** GROUP BY's elements: expressions, {@code ()}, ROLLUP (...), CUBE (...), GROUPING SETS (...). */
    private List<Expr> groupByList() {
        Token first = peek();
        boolean distinct = peek(1).type != Token.Type.END && !peek(1).is(Symbol.COMMA) && acceptKeyword(Keyword.DISTINCT);
        if (!distinct && peek(1).type != Token.Type.END && !peek(1).is(Symbol.COMMA)) {
            acceptKeyword(Keyword.ALL);
        }
        List<Expr> out = new ArrayList<>();
        do {
            Expr e = groupingElement();
            if (e instanceof Expr.GroupingSet r && r.kind() == Expr.GroupingKind.ROW && !r.items().isEmpty()) {
                out.addAll(r.items()); // GROUP BY (a, b) is GROUP BY a, b
            } else {
                out.add(e);
            }
        } while (acceptSymbol(Symbol.COMMA));
        return distinct ? List.of(new Expr.GroupingSet(Expr.GroupingKind.DISTINCT, out, first.start, lastEnd())) : out;
    }

    private boolean word(int ahead, String w) {
        Token t = peek(ahead);
        return (t.type == Token.Type.IDENT || t.keyword() != null) && t.text.equalsIgnoreCase(w);
    }

    /** One grouping element. */
    private Expr groupingElement() {
        Token t = peek();
        if ((word(0, "ROLLUP") || word(0, "CUBE")) && peek(1).is(Symbol.LPAREN)) {
            pos += 2;
            Expr.GroupingKind kind = t.text.equalsIgnoreCase("ROLLUP") ? Expr.GroupingKind.ROLLUP : Expr.GroupingKind.CUBE;
            List<Expr> items = new ArrayList<>();
            do {
                items.add(groupingRowOrExpr(true));
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
            return new Expr.GroupingSet(kind, items, t.start, lastEnd());
        }
        if (word(0, "GROUPING") && word(1, "SETS") && peek(2).is(Symbol.LPAREN)) {
            pos += 3;
            deeper();
            List<Expr> items = new ArrayList<>();
            do {
                items.add(groupingElement());
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
            depth--;
            return new Expr.GroupingSet(Expr.GroupingKind.SETS, items, t.start, lastEnd());
        }
        return groupingRowOrExpr(true);
    }

    /** After a GROUP BY element: the end of the list (no operator continues an expression). */
    private boolean inGroupingList() {
        Token t = peek();
        return !(t.type == Token.Type.END || t.is(Keyword.HAVING) || t.is(Keyword.ORDER) || t.is(Keyword.LIMIT)
                || t.is(Keyword.OFFSET) || t.is(Keyword.WINDOW) || t.is(Keyword.UNION) || t.is(Keyword.INTERSECT)
                || t.is(Keyword.EXCEPT) || t.is(Symbol.SEMICOLON));
    }

    /** {@code ()}, a parenthesised list {@code (a, b)} (when {@code rows}; a single {@code (a)} too), or an expression. */
    private Expr groupingRowOrExpr(boolean rows) {
        Token t = peek();
        if (t.is(Symbol.LPAREN) && peek(1).is(Symbol.RPAREN)) {
            pos += 2;
            return new Expr.GroupingSet(Expr.GroupingKind.ROW, List.of(), t.start, lastEnd());
        }
        if (rows && t.is(Symbol.LPAREN) && !startsQuery(pos + 1)) {
            int save = pos;
            try {
                pos++;
                List<Expr> list = new ArrayList<>();
                do {
                    Expr item = groupingRowOrExpr(true); // (a, (b, c)) is the set {a, b, c}
                    if (item instanceof Expr.GroupingSet r && r.kind() == Expr.GroupingKind.ROW) {
                        list.addAll(r.items());
                    } else {
                        list.add(item);
                    }
                } while (acceptSymbol(Symbol.COMMA));
                expectSymbol(Symbol.RPAREN);
                if (peek().is(Symbol.COMMA) || peek().is(Symbol.RPAREN) || !inGroupingList()) {
                    return new Expr.GroupingSet(Expr.GroupingKind.ROW, list, t.start, lastEnd());
                }
            } catch (SqlException e) {
                if (e == tooDeep) {
                    throw e;
                }
            }
            pos = save;
        }
        return expr();
    }

    /**
     * After an aggregate call's closing parenthesis: {@code WITHIN GROUP (ORDER BY ...)} and
     * {@code FILTER (WHERE ...)}; null when the call has neither (nor an ORDER BY inside).
     */
    private Expr.AggregateExtras aggregateExtras(List<Query.OrderItem> argOrder) {
        boolean within = false;
        if (peek().type == Token.Type.IDENT && peek().text.equalsIgnoreCase("WITHIN") && peek(1).is(Keyword.GROUP)
                && peek(2).is(Symbol.LPAREN)) {
            if (!argOrder.isEmpty()) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: cannot use multiple ORDER BY clauses with WITHIN GROUP");
            }
            pos += 3;
            expectKeyword(Keyword.ORDER);
            expectKeyword(Keyword.BY);
            argOrder = orderItems();
            expectSymbol(Symbol.RPAREN);
            within = true;
        }
        Expr filter = null;
        if (peek().is(Keyword.FILTER) && peek(1).is(Symbol.LPAREN)) {
            pos += 2;
            expectKeyword(Keyword.WHERE);
            filter = expr();
            expectSymbol(Symbol.RPAREN);
        }
        return filter == null && argOrder.isEmpty() ? null : new Expr.AggregateExtras(filter, argOrder, within);
    }

    private Expr.FrameBound frameBound() {
        if (acceptKeyword(Keyword.UNBOUNDED)) {
            if (acceptKeyword(Keyword.PRECEDING)) {
                return new Expr.FrameBound(Expr.BoundKind.UNBOUNDED_PRECEDING, null);
            }
            if (acceptKeyword(Keyword.FOLLOWING)) {
                return new Expr.FrameBound(Expr.BoundKind.UNBOUNDED_FOLLOWING, null);
            }
            throw error("PRECEDING or FOLLOWING after UNBOUNDED");
        }
        if (acceptKeyword(Keyword.CURRENT)) {
            expectKeyword(Keyword.ROW);
            return new Expr.FrameBound(Expr.BoundKind.CURRENT_ROW, null);
        }
        Expr offset = additive();
        if (acceptKeyword(Keyword.PRECEDING)) {
            return new Expr.FrameBound(Expr.BoundKind.PRECEDING, offset);
        }
        if (acceptKeyword(Keyword.FOLLOWING)) {
            return new Expr.FrameBound(Expr.BoundKind.FOLLOWING, offset);
        }
        throw error("PRECEDING or FOLLOWING");
    }

    private void deeper() {
        if (++depth > MAX_DEPTH) {
            tooDeep = new SqlException(SqlState.STATEMENT_TOO_COMPLEX, "syntax error: expression nested deeper than " + MAX_DEPTH + " levels");
            throw tooDeep;
        }
    }

    /** A number written without a fraction or an exponent. */
    private static boolean isIntegral(String number) {
        for (int i = 0; i < number.length(); i++) {
            char c = number.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') {
                return false;
            }
        }
        return true;
    }

    // ---- schema changes on live tables (ALTER TABLE, TRUNCATE, CREATE TABLE AS, SELECT INTO) ----

    /** PostgreSQL 15's table storage parameters (besides autovacuum_* and toast.*), accepted and ignored. */
    private static final Set<String> STORAGE_PARAMETERS = Set.of("fillfactor", "toast_tuple_target", "parallel_workers",
            "vacuum_index_cleanup", "vacuum_truncate", "user_catalog_table", "log_autovacuum_min_duration", "oids");

    /** The table of a top-level {@code SELECT ... INTO t} being parsed, else null. */
    private String selectInto;
    /** Whether the SELECT being parsed is a statement's first, where INTO may follow its items. */
    private boolean intoAllowed;

    private Statement alter() {
        if ((peek().is(Keyword.INDEX) || peek().is(Keyword.VIEW)) && Dialect.postgres()) {
            // ALTER INDEX | VIEW [IF EXISTS] x RENAME TO y: the ALTER TABLE action, which finds any relation by name
            boolean index = next().is(Keyword.INDEX);
            boolean ifExists = ifExists();
            String name = name(index ? "index name" : "view name");
            int start = peek().start;
            if (acceptKeyword(Keyword.RENAME) && acceptKeyword(Keyword.TO)) {
                return new Statement.AlterTable(name, ifExists, List.of(new Statement.RenameTable(name("new name"))));
            }
            return new Statement.AlterTable(name, ifExists, List.of(unsupportedAction(start)));
        }
        expectKeyword(Keyword.TABLE);
        boolean ifExists = ifExists();
        if (peek().isKeyword("ONLY")) {
            pos++;
        }
        String table = name("table name");
        acceptSymbol(Symbol.STAR);
        List<Statement.AlterAction> actions = new ArrayList<>();
        if (peek().is(Keyword.RENAME) && peek(1).is(Keyword.TO)) {
            pos += 2;
            actions.add(new Statement.RenameTable(name("new table name")));
            return new Statement.AlterTable(table, ifExists, actions);
        }
        do {
            actions.add(alterAction());
            actions.addAll(followingActions);
            followingActions.clear();
        } while (acceptSymbol(Symbol.COMMA));
        return new Statement.AlterTable(table, ifExists, actions);
    }

    /** Actions an ALTER TABLE action implies, taken after it (an added column's own constraints). */
    private final List<Statement.AlterAction> followingActions = new ArrayList<>();

    private Statement.AlterAction alterAction() {
        int start = peek().start;
        if (Dialect.postgres() && (peek().isKeyword("ATTACH") || peek().isKeyword("DETACH")) && peek(1).isKeyword("PARTITION")) {
            return partitionAction(); // partition
        }
        if (acceptKeyword(Keyword.ADD)) {
            if (peek().is(Keyword.CONSTRAINT) || peek().is(Keyword.CHECK) || peek().is(Keyword.UNIQUE)
                    || peek().is(Keyword.PRIMARY) || peek().is(Keyword.FOREIGN)) {
                Statement.TableConstraint c = tableConstraint();
                if (c == null) {
                    return unsupportedAction(start);
                }
                return new Statement.AddConstraint(c);
            }
            if (peek().isKeyword("EXCLUDE")) {
                return unsupportedAction(start);
            }
            acceptKeyword(Keyword.COLUMN);
            boolean ifNotExists = ifNotExists();
            // the column's CHECK and REFERENCES become ADD CONSTRAINT actions after it
            List<Statement.TableConstraint> own = new ArrayList<>();
            columnConstraints = own;
            Statement.ColumnDef def;
            try {
                def = columnDef();
            } finally {
                columnConstraints = null;
            }
            for (Statement.TableConstraint c : own) {
                followingActions.add(new Statement.AddConstraint(c));
            }
            return new Statement.AddColumn(def, ifNotExists);
        }
        if (acceptKeyword(Keyword.DROP)) {
            if (acceptKeyword(Keyword.CONSTRAINT)) {
                boolean ifExists = ifExists();
                String constraint = name("constraint name");
                return new Statement.DropConstraint(constraint, ifExists, cascadeOption());
            }
            acceptKeyword(Keyword.COLUMN);
            boolean ifExists = ifExists();
            String column = name("column name");
            return new Statement.DropColumn(column, ifExists, cascadeOption());
        }
        if (acceptKeyword(Keyword.RENAME)) {
            if (acceptKeyword(Keyword.CONSTRAINT)) { // regress24
                String from = name("constraint name");
                expectKeyword(Keyword.TO);
                return new Statement.RenameConstraint(from, name("new constraint name"));
            }
            acceptKeyword(Keyword.COLUMN);
            String column = name("column name");
            expectKeyword(Keyword.TO);
            return new Statement.RenameColumn(column, name("new column name"));
        }
        if (acceptKeyword(Keyword.ALTER)) {
            if (peek().is(Keyword.CONSTRAINT)) {
                return unsupportedAction(start);
            }
            acceptKeyword(Keyword.COLUMN);
            String column = name("column name");
            if (peek().is(Keyword.SET) && peek(1).isKeyword("DATA") && peek(2).isKeyword("TYPE") || peek().isKeyword("TYPE")) {
                pos += peek().isKeyword("TYPE") ? 1 : 3;
                TypeName type = typeName();
                Expr using = null;
                String usingText = null;
                if (acceptKeyword(Keyword.COLLATE)) {
                    name("collation");
                }
                if (acceptKeyword(Keyword.USING)) {
                    int from = peek().start;
                    using = expr();
                    usingText = sql.substring(from, lastEnd());
                }
                return new Statement.AlterColumnType(column, type, using, usingText);
            }
            Statement.AlterAction identity = identityAction(column, start); // regress24
            if (identity != null) {
                return identity;
            }
            if (acceptKeyword(Keyword.SET)) {
                if (acceptKeyword(Keyword.DEFAULT)) {
                    int from = peek().start;
                    Expr value = expr();
                    return new Statement.SetDefault(column, value, sql.substring(from, lastEnd()));
                }
                if (acceptKeyword(Keyword.NOT)) {
                    expectKeyword(Keyword.NULL);
                    return new Statement.SetNotNull(column, true);
                }
                return unsupportedAction(start);
            }
            if (acceptKeyword(Keyword.DROP)) {
                if (acceptKeyword(Keyword.DEFAULT)) {
                    return new Statement.SetDefault(column, null, null);
                }
                if (acceptKeyword(Keyword.NOT)) {
                    expectKeyword(Keyword.NULL);
                    return new Statement.SetNotNull(column, false);
                }
                return unsupportedAction(start);
            }
            return unsupportedAction(start);
        }
        if (peek().type == Token.Type.IDENT) {
            return unsupportedAction(start);
        }
        throw error("ADD, DROP, RENAME or ALTER");
    }

    // ---- regress24 ----

    /**
     * After {@code ALTER [COLUMN] c}: an identity change ({@link Statement.IdentityAction}), an
     * unsupported one (several SET/RESTART options at once), or null when none follows.
     */
    private Statement.AlterAction identityAction(String column, int start) {
        if (peek().is(Keyword.ADD) && peek(1).isKeyword("GENERATED")) {
            pos++;
            Statement.Identity id = identityClause();
            return new Statement.IdentityAction(column, "ADD", id.always(), false, null, id.options());
        }
        if (peek().is(Keyword.DROP) && peek(1).isKeyword("IDENTITY")) {
            pos += 2;
            return new Statement.IdentityAction(column, "DROP", false, ifExists(), null, List.of());
        }
        Statement.AlterAction a = null;
        if (peek().is(Keyword.SET) && peek(1).isKeyword("GENERATED")) {
            pos += 2;
            boolean always = false;
            if (peek().isKeyword("ALWAYS")) {
                pos++;
                always = true;
            } else {
                expectKeyword(Keyword.BY);
                expectKeyword(Keyword.DEFAULT);
            }
            a = new Statement.IdentityAction(column, "SET", always, false, null, List.of());
        } else if (peek().isKeyword("RESTART")) {
            pos++;
            Long value = null;
            if (acceptKeyword(Keyword.WITH) || peek().type == Token.Type.NUMBER || peek().is(Symbol.MINUS)) {
                boolean minus = acceptSymbol(Symbol.MINUS);
                Token n = next();
                if (n.type != Token.Type.NUMBER) {
                    throw error("a number after RESTART WITH");
                }
                try {
                    value = Long.parseLong(n.text) * (minus ? -1 : 1);
                } catch (NumberFormatException e) {
                    throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"" + n.text + "\" is out of range for type bigint");
                }
            }
            a = new Statement.IdentityAction(column, "RESTART", false, false, value, List.of());
        }
        if (a != null && (peek().is(Keyword.SET) || peek().isKeyword("RESTART"))) {
            // several identity options in one action: not run here
            return unsupportedAction(start);
        }
        return a;
    }

    /**
     * An ALTER TABLE action this build does not run (constraints, storage settings, ...): its
     * words up to the next top-level comma, kept for the "not supported yet" error.
     */
    private Statement.AlterAction unsupportedAction(int start) {
        int level = 0;
        while (peek().type != Token.Type.END && !peek().is(Symbol.SEMICOLON) && !(level == 0 && peek().is(Symbol.COMMA))) {
            if (peek().is(Symbol.LPAREN)) {
                level++;
            } else if (peek().is(Symbol.RPAREN)) {
                level--;
            }
            pos++;
        }
        return new Statement.UnsupportedAction(sql.substring(start, Math.max(start, lastEnd())));
    }

    /** {@code [CASCADE | RESTRICT]}: true for CASCADE. */
    private boolean cascadeOption() {
        if (peek().isKeyword("CASCADE")) {
            pos++;
            return true;
        }
        if (peek().isKeyword("RESTRICT")) {
            pos++;
        }
        return false;
    }

    private Statement truncate() {
        acceptKeyword(Keyword.TABLE);
        List<String> tables = new ArrayList<>();
        do {
            if (peek().isKeyword("ONLY")) {
                pos++;
            }
            tables.add(name("table name"));
            acceptSymbol(Symbol.STAR);
        } while (acceptSymbol(Symbol.COMMA));
        boolean restart = false;
        if ((peek().isKeyword("RESTART") || peek().isKeyword("CONTINUE")) && peek(1).isKeyword("IDENTITY")) {
            restart = peek().isKeyword("RESTART");
            pos += 2;
        }
        return new Statement.Truncate(tables, restart, cascadeOption());
    }

    /** {@code WITH (name [= value], ...)} or {@code WITHOUT OIDS} after CREATE TABLE: storage options, accepted and ignored. */
    private void storageOptions() {
        if (peek().is(Keyword.WITH) && peek(1).is(Symbol.LPAREN)) {
            pos += 2;
            do {
                Token p = peek();
                String param = name("storage parameter");
                if (acceptSymbol(Symbol.DOT)) {
                    param += "." + name("storage parameter");
                }
                String known = isDoubleQuoted(p) ? param : param.toLowerCase(Locale.ROOT);
                if (!STORAGE_PARAMETERS.contains(known) && !known.startsWith("autovacuum_") && !known.startsWith("toast.")) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + param + "\"");
                }
                if (acceptSymbol(Symbol.EQ)) {
                    Token v = next();
                    if (v.type == Token.Type.END) {
                        throw error("a storage parameter's value");
                    }
                }
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
        } else if (peek().isKeyword("WITHOUT") && peek(1).isKeyword("OIDS")) {
            pos += 2;
        }
    }

    /** {@code CREATE TABLE t [(names)] [WITH (options)] AS query [WITH [NO] DATA]}, after the table name. */
    private Statement createTableAs(String table, boolean ifNotExists) {
        List<String> names = peek().is(Symbol.LPAREN) ? nameList("column name") : null;
        storageOptions();
        expectKeyword(Keyword.AS);
        Query q = query();
        boolean withData = true;
        if (peek().is(Keyword.WITH)) {
            pos++;
            withData = !(peek().isKeyword("NO"));
            if (!withData) {
                pos++;
            }
            if (!peek().isKeyword("DATA")) {
                throw error("DATA after WITH [NO]");
            }
            pos++;
        }
        return new Statement.CreateTableAs(table, names, q, withData, ifNotExists);
    }

    /** After a SELECT's items: {@code INTO [TEMP | TEMPORARY | UNLOGGED] [TABLE] t}. */
    private void selectIntoTarget() {
        pos++; // INTO
        if (!acceptKeyword(Keyword.TEMP) && !acceptKeyword(Keyword.TEMPORARY) && peek().isKeyword("UNLOGGED")) {
            pos++;
        }
        acceptKeyword(Keyword.TABLE);
        selectInto = name("table name");
    }

    private Statement selectInto(Query q) {
        String table = selectInto;
        selectInto = null;
        return new Statement.CreateTableAs(table, null, q, true, false);
    }

    // ---- acl ----

    /**
     * CREATE/ALTER/DROP USER|ROLE, GRANT, REVOKE (PostgreSQL's forms, either dialect), or null when
     * the statement is none of them (nothing taken).
     */
    private Statement aclStatement() {
        Token t = peek();
        boolean role = peek(1).isKeyword("USER") || peek(1).isKeyword("ROLE");
        if (t.is(Keyword.CREATE) && role) {
            boolean login = peek(1).isKeyword("USER"); // PostgreSQL: CREATE USER is LOGIN, CREATE ROLE NOLOGIN
            pos += 2;
            String name = name("user name");
            Statement.RoleOptions o = roleOptions(login);
            return new Statement.CreateUser(name, o.login(), o.password(), o.superuser());
        }
        if (t.is(Keyword.ALTER) && role) {
            pos += 2;
            String name = name("user name");
            Statement.RoleOptions o = roleOptions(null);
            return new Statement.AlterUser(name, o.login(), o.password(), o.superuser());
        }
        if (t.is(Keyword.DROP) && role) {
            pos += 2;
            boolean ifExists = ifExists();
            List<String> names = new ArrayList<>();
            do {
                names.add(name("user name"));
            } while (acceptSymbol(Symbol.COMMA));
            return new Statement.DropUser(names, ifExists);
        }
        if (t.isKeyword("GRANT") || t.isKeyword("REVOKE")) {
            boolean grant = t.isKeyword("GRANT");
            pos++;
            List<String> privileges = new ArrayList<>();
            if (acceptKeyword(Keyword.ALL)) {
                if (peek().isKeyword("PRIVILEGES")) {
                    pos++;
                }
                privileges.add("ALL");
            } else {
                do {
                    Token p = peek();
                    String w = p.text.toUpperCase(java.util.Locale.ROOT);
                    if (p.type != Token.Type.IDENT || !(w.equals("SELECT") || w.equals("INSERT") || w.equals("UPDATE")
                            || w.equals("DELETE") || w.equals("TRUNCATE"))) {
                        throw error("SELECT, INSERT, UPDATE, DELETE, TRUNCATE or ALL");
                    }
                    pos++;
                    privileges.add(w);
                } while (acceptSymbol(Symbol.COMMA));
            }
            expectKeyword(Keyword.ON);
            acceptKeyword(Keyword.TABLE);
            List<String> tables = new ArrayList<>();
            do {
                tables.add(name("table name"));
            } while (acceptSymbol(Symbol.COMMA));
            if (grant) {
                if (!peek().isKeyword("TO")) {
                    throw error("TO");
                }
            } else if (!peek().is(Keyword.FROM)) {
                throw error("FROM");
            }
            pos++;
            List<String> users = new ArrayList<>();
            do {
                users.add(name("user name"));
            } while (acceptSymbol(Symbol.COMMA));
            return grant ? new Statement.Grant(privileges, tables, users) : new Statement.Revoke(privileges, tables, users);
        }
        return null;
    }

    /** {@code [WITH] LOGIN | NOLOGIN | PASSWORD 'p' | PASSWORD NULL | SUPERUSER | NOSUPERUSER ...}. */
    private Statement.RoleOptions roleOptions(Boolean login) {
        if (peek().is(Keyword.WITH)) {
            pos++;
        }
        String password = null;
        Boolean superuser = null;
        boolean clearPassword = false;
        while (peek().type == Token.Type.IDENT) {
            Token o = peek();
            if (o.isKeyword("LOGIN")) {
                login = true;
            } else if (o.isKeyword("NOLOGIN")) {
                login = false;
            } else if (o.isKeyword("SUPERUSER")) {
                superuser = true;
            } else if (o.isKeyword("NOSUPERUSER")) {
                superuser = false;
            } else if (o.isKeyword("PASSWORD")) {
                pos++;
                Token p = peek();
                if (p.is(Keyword.NULL)) {
                    clearPassword = true;
                } else if (p.type == Token.Type.STRING && !isDoubleQuoted(p)) {
                    password = p.text;
                } else {
                    throw error("a password string or NULL");
                }
            } else {
                throw error("LOGIN, NOLOGIN, PASSWORD, SUPERUSER or NOSUPERUSER");
            }
            pos++;
        }
        return new Statement.RoleOptions(login, clearPassword ? "" : password, superuser);
    }

    // ---- sequences (seq helper) ----

    /**
     * CREATE [TEMP] SEQUENCE, ALTER SEQUENCE, DROP SEQUENCE (PostgreSQL's), or null when the
     * statement is none of them (nothing taken).
     */
    private Statement sequenceStatement() {
        Token t = peek();
        if (t.isKeyword("DISCARD") && (peek(1).isKeyword("SEQUENCES") || peek(1).is(Keyword.ALL))) {
            pos += 2;
            return new Statement.DiscardSequences();
        }
        if (t.is(Keyword.CREATE)) {
            int skip = peek(1).is(Keyword.TEMP) || peek(1).is(Keyword.TEMPORARY) || peek(1).isKeyword("UNLOGGED") ? 2 : 1;
            if (!peek(skip).isKeyword("SEQUENCE")) {
                return null;
            }
            pos += skip + 1;
            boolean ifNotExists = ifNotExists();
            String name = sequenceName();
            return new Statement.CreateSequence(name, ifNotExists, sequenceOptions(false));
        }
        if (t.is(Keyword.ALTER) && peek(1).isKeyword("SEQUENCE")) {
            pos += 2;
            boolean ifExists = ifExists();
            String name = sequenceName();
            int before = pos;
            List<Statement.SequenceOption> options = sequenceOptions(true);
            if (options.isEmpty() && pos == before) { // SET [UN]LOGGED alone takes tokens and adds no option
                throw error("a sequence option");
            }
            return new Statement.AlterSequence(name, ifExists, options);
        }
        if (t.is(Keyword.DROP) && peek(1).isKeyword("SEQUENCE")) {
            pos += 2;
            boolean ifExists = ifExists();
            List<String> names = new ArrayList<>();
            do {
                names.add(sequenceName());
            } while (acceptSymbol(Symbol.COMMA));
            boolean cascade = false;
            if (peek().isKeyword("CASCADE")) {
                pos++;
                cascade = true;
            } else if (peek().isKeyword("RESTRICT")) {
                pos++;
            }
            return new Statement.DropSequence(names, ifExists, cascade);
        }
        return null;
    }

    /** A sequence's name; {@code public.} before it is dropped (one schema). */
    private String sequenceName() {
        String n = name("sequence name");
        if (acceptSymbol(Symbol.DOT)) {
            if (!n.equalsIgnoreCase("public")) {
                throw new SqlException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + n + "\" does not exist");
            }
            n = name("sequence name");
        }
        return n;
    }

    /** The options of CREATE/ALTER SEQUENCE or of an identity column, in any order. */
    private List<Statement.SequenceOption> sequenceOptions(boolean alter) {
        List<Statement.SequenceOption> out = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.is(Keyword.AS)) {
                pos++;
                TypeName type = typeName();
                out.add(new Statement.SequenceOption("AS", null, type.base()));
            } else if (t.isKeyword("INCREMENT")) {
                pos++;
                acceptKeyword(Keyword.BY);
                out.add(new Statement.SequenceOption("INCREMENT", signedLong(), null));
            } else if (t.isKeyword("MINVALUE") || t.isKeyword("MAXVALUE")) {
                pos++;
                out.add(new Statement.SequenceOption(t.text.toUpperCase(Locale.ROOT), signedLong(), null));
            } else if (t.is(Keyword.NOT) || t.isKeyword("NO")) {
                Token w = peek(1);
                if (t.isKeyword("NO") && (w.isKeyword("MINVALUE") || w.isKeyword("MAXVALUE") || w.isKeyword("CYCLE"))) {
                    pos += 2;
                    out.add(new Statement.SequenceOption("NO " + w.text.toUpperCase(Locale.ROOT), null, null));
                } else {
                    break;
                }
            } else if (t.isKeyword("START")) {
                pos++;
                acceptKeyword(Keyword.WITH);
                out.add(new Statement.SequenceOption("START", signedLong(), null));
            } else if (t.isKeyword("RESTART") && alter) {
                pos++;
                Long v = null;
                if (acceptKeyword(Keyword.WITH) || peek().type == Token.Type.NUMBER || peek().is(Symbol.MINUS) || peek().is(Symbol.PLUS)) {
                    v = signedLong();
                }
                out.add(new Statement.SequenceOption("RESTART", v, null));
            } else if (t.isKeyword("CACHE")) {
                pos++;
                out.add(new Statement.SequenceOption("CACHE", signedLong(), null));
            } else if (t.isKeyword("CYCLE")) {
                pos++;
                out.add(new Statement.SequenceOption("CYCLE", null, null));
            } else if (t.isKeyword("OWNED")) {
                pos++;
                expectKeyword(Keyword.BY);
                if (peek().isKeyword("NONE")) {
                    pos++;
                    out.add(new Statement.SequenceOption("OWNED BY", null, null));
                } else {
                    String table = name("table name");
                    expectSymbol(Symbol.DOT);
                    String column = name("column name");
                    if (acceptSymbol(Symbol.DOT)) { // schema.table.column
                        table = column;
                        column = name("column name");
                    }
                    out.add(new Statement.SequenceOption("OWNED BY", null, table + "." + column));
                }
            } else if (t.isKeyword("SEQUENCE") && peek(1).isKeyword("NAME")) {
                pos += 2;
                out.add(new Statement.SequenceOption("SEQUENCE NAME", null, sequenceName()));
            } else if (t.is(Keyword.SET) && alter && (peek(1).isKeyword("LOGGED") || peek(1).isKeyword("UNLOGGED"))) {
                pos += 2; // no meaning here: accepted
            } else {
                break;
            }
        }
        return out;
    }

    /** {@code [+|-] integer}; out of bigint's range is an error. */
    private Long signedLong() {
        boolean negative = false;
        if (acceptSymbol(Symbol.MINUS)) {
            negative = true;
        } else {
            acceptSymbol(Symbol.PLUS);
        }
        Token t = peek();
        if (t.type != Token.Type.NUMBER || !isIntegral(t.text)) {
            throw error("an integer");
        }
        pos++;
        try {
            return Long.parseLong(negative ? "-" + t.text : t.text);
        } catch (NumberFormatException e) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"" + (negative ? "-" : "") + t.text + "\" is out of range for type bigint");
        }
    }

    /** {@code GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(options)]} after a column's type. */
    private Statement.Identity identityClause() {
        pos++; // GENERATED
        boolean always;
        if (peek().isKeyword("ALWAYS")) {
            pos++;
            always = true;
        } else {
            expectKeyword(Keyword.BY);
            expectKeyword(Keyword.DEFAULT);
            always = false;
        }
        expectKeyword(Keyword.AS);
        if (!peek().isKeyword("IDENTITY")) {
            throw error("IDENTITY (generated columns are not supported)");
        }
        pos++;
        List<Statement.SequenceOption> options = List.of();
        if (acceptSymbol(Symbol.LPAREN)) {
            options = sequenceOptions(false);
            expectSymbol(Symbol.RPAREN);
        }
        return new Statement.Identity(always, options);
    }

    /** INSERT's {@code OVERRIDING SYSTEM VALUE | OVERRIDING USER VALUE}, before VALUES or the query. */
    private Statement.Overriding overriding() {
        if (!peek().isKeyword("OVERRIDING")) {
            return Statement.Overriding.NONE;
        }
        pos++;
        Statement.Overriding o;
        if (peek().isKeyword("SYSTEM")) {
            o = Statement.Overriding.SYSTEM;
        } else if (peek().isKeyword("USER")) {
            o = Statement.Overriding.USER;
        } else {
            throw error("SYSTEM or USER after OVERRIDING");
        }
        pos++;
        if (!peek().isKeyword("VALUE")) {
            throw error("VALUE");
        }
        pos++;
        return o;
    }

    // ---- token helpers ------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.type != Token.Type.END) {
            pos++;
        }
        return t;
    }

    /** End of the last token taken. */
    private int lastEnd() {
        return pos == 0 ? 0 : tokens.get(pos - 1).end;
    }

    private boolean acceptKeyword(Keyword kw) {
        if (peek().is(kw)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(Keyword kw) {
        if (!acceptKeyword(kw)) {
            throw error(kw.name());
        }
    }

    private boolean acceptSymbol(Symbol s) {
        if (peek().is(s)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectSymbol(Symbol s) {
        if (!acceptSymbol(s)) {
            throw error("'" + s.text + "'");
        }
    }

    private boolean isDoubleQuoted(Token t) {
        return t.type == Token.Type.STRING && (sql.charAt(t.start) == '"'
                || (sql.charAt(t.start) == 'U' || sql.charAt(t.start) == 'u') && t.start + 2 < sql.length()
                && sql.charAt(t.start + 1) == '&' && sql.charAt(t.start + 2) == '"'); // U&"..." (regress25)
    }

    /** A word (any keyword included) or a double-quoted name. */
    private boolean isName(Token t) {
        return t.type == Token.Type.IDENT || isDoubleQuoted(t);
    }

    private String name(String what) {
        Token t = peek();
        if (!isName(t)) {
            throw error(what);
        }
        pos++;
        return t.text;
    }

    /** {@code (a, b, ...)}. */
    private List<String> nameList(String what) {
        expectSymbol(Symbol.LPAREN);
        List<String> names = new ArrayList<>();
        do {
            names.add(name(what));
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        return names;
    }

    // ---- regress25 ----

    /**
     * PostgreSQL's {@code ANALYZE} and {@code VACUUM} ({@code [(options)] [FULL|FREEZE|VERBOSE|ANALYZE ...]
     * [table [(columns)], ...]}): statistics and space, which RespSQL keeps as it goes; the statement names
     * the tables and columns it would look at, and running it checks that they exist.
     */
    private Statement maintenance() {
        pos++; // ANALYZE or VACUUM
        if (acceptSymbol(Symbol.LPAREN)) { // (VERBOSE, SKIP_LOCKED true, ...)
            int depth = 1;
            while (depth > 0) {
                Token o = next();
                if (o.type == Token.Type.END) {
                    throw error("')'");
                }
                depth += o.is(Symbol.LPAREN) ? 1 : o.is(Symbol.RPAREN) ? -1 : 0;
            }
        }
        while (peek().isKeyword("FULL") || peek().isKeyword("FREEZE") || peek().isKeyword("VERBOSE")
                || peek().isKeyword("ANALYZE") || peek().isKeyword("ANALYSE")) {
            pos++;
        }
        List<String> tables = new ArrayList<>();
        List<List<String>> columns = new ArrayList<>();
        if (isName(peek())) {
            do {
                tables.add(name("table name"));
                columns.add(peek().is(Symbol.LPAREN) ? nameList("column name") : List.of());
            } while (acceptSymbol(Symbol.COMMA));
        }
        return new Statement.Maintenance(tables, columns);
    }

    /**
     * PostgreSQL's column aliases on a table, {@code t [AS] x (a, b)}: the first columns renamed, the
     * others keeping their names; read as the derived table {@code (SELECT * FROM t) x (a, b)}.
     */
    private Query.FromItem aliasedTable(String table, String alias, int start) {
        int end = lastEnd();
        List<String> columns = nameList("column alias");
        Query.Select all = new Query.Select(false, List.of(new Query.Star(null, start, end)),
                new Query.TableRef(table, null, start, end), null, List.of(), null, List.of(), null, null, false, start, end);
        return new Query.Derived(all, alias, columns, start, lastEnd());
    }

    // ---- window ----
    // Named windows (WINDOW w AS (...), OVER w, OVER (w ...)) are resolved here, with PostgreSQL's
    // refinement rules, so the tree holds each call's whole window. A SELECT's WINDOW clause comes
    // after its select list: select() parses it ahead (namedWindows) and skips it when it gets there.

    /** The windows the SELECT being parsed defines (by name; an unquoted name folded to lower case). */
    private java.util.Map<String, Expr.Window> windowDefs = java.util.Map.of();

    /**
     * At a SELECT's start (after the SELECT word): finds its WINDOW clause (at this parenthesis level,
     * before a set operation, ORDER BY or LIMIT ends the SELECT), parses its definitions into
     * {@link #windowDefs} and returns the token position after it; -1 when there is none (the
     * SELECT then defines no window: an enclosing query's are not visible in a subquery).
     */
    private int namedWindows() {
        windowDefs = java.util.Map.of();
        int level = 0;
        int at = pos;
        for (; at < tokens.size(); at++) {
            Token t = tokens.get(at);
            if (t.type == Token.Type.END || t.is(Symbol.SEMICOLON)) {
                return -1;
            }
            if (t.is(Symbol.LPAREN)) {
                level++;
            } else if (t.is(Symbol.RPAREN)) {
                if (level-- == 0) {
                    return -1;
                }
            } else if (level == 0) {
                if (t.is(Keyword.WINDOW)) {
                    break;
                }
                if (t.is(Keyword.UNION) || t.is(Keyword.INTERSECT) || t.is(Keyword.EXCEPT) || t.is(Keyword.ORDER)
                        || t.is(Keyword.LIMIT) || t.is(Keyword.OFFSET)) {
                    return -1;
                }
            }
        }
        if (at >= tokens.size()) {
            return -1;
        }
        int resume = pos;
        pos = at + 1;
        java.util.Map<String, Expr.Window> defs = new java.util.LinkedHashMap<>();
        do {
            Token nameToken = peek();
            String name = windowName(name("a window name"));
            expectKeyword(Keyword.AS);
            expectSymbol(Symbol.LPAREN);
            windowDefs = defs; // a definition may refine the ones before it
            Expr.Window w = windowSpec(true);
            expectSymbol(Symbol.RPAREN);
            if (defs.containsKey(name)) {
                throw new SqlException(SqlState.WINDOWING_ERROR, "window \"" + name + "\" is already defined (at position " + nameToken.start + ")");
            }
            defs.put(name, w);
        } while (acceptSymbol(Symbol.COMMA));
        int end = pos;
        pos = resume;
        windowDefs = defs;
        return end;
    }

    private String windowName(String written) {
        Token t = tokens.get(pos - 1);
        return isDoubleQuoted(t) ? written : written.toLowerCase(Locale.ROOT);
    }

    /** After a call: {@code OVER name} or {@code OVER ( spec )}. */
    private Expr.Window over() {
        expectKeyword(Keyword.OVER);
        if (acceptSymbol(Symbol.LPAREN)) {
            Expr.Window w = windowSpec(false);
            expectSymbol(Symbol.RPAREN);
            return w;
        }
        Token t = peek();
        String name = windowName(name("'(' or a window name after OVER"));
        Expr.Window w = windowDefs.get(name);
        if (w == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "window \"" + name + "\" does not exist (at position " + t.start + ")");
        }
        return w;
    }

    /**
     * {@code [existing_window] [PARTITION BY ...] [ORDER BY ...] [frame]} inside parentheses (an
     * OVER clause's or a WINDOW definition's), the existing window's clauses copied as PostgreSQL
     * does: its PARTITION BY cannot be overridden, its ORDER BY only added when it has none, and a
     * window with a frame cannot be copied.
     */
    private Expr.Window windowSpec(boolean definition) {
        String ref = null;
        Token refToken = peek();
        if (isName(refToken) && refToken.keyword() == null && !(refToken.isKeyword("GROUPS") && !peek(1).is(Symbol.RPAREN)
                && !windowDefs.containsKey("groups"))) {
            pos++;
            ref = windowName(refToken.text);
        }
        List<Expr> partitionBy = List.of();
        if (acceptKeyword(Keyword.PARTITION)) {
            expectKeyword(Keyword.BY);
            partitionBy = exprList();
        }
        List<Query.OrderItem> orderBy = optionalOrderBy();
        Expr.Frame frame = null;
        if (peek().is(Keyword.ROWS) || peek().is(Keyword.RANGE) || peek().isKeyword("GROUPS")) {
            Token u = next();
            Expr.FrameUnit unit = u.is(Keyword.ROWS) ? Expr.FrameUnit.ROWS : u.is(Keyword.RANGE) ? Expr.FrameUnit.RANGE : Expr.FrameUnit.GROUPS;
            Expr.FrameBound start;
            Expr.FrameBound end = null;
            if (acceptKeyword(Keyword.BETWEEN)) {
                start = frameBound();
                expectKeyword(Keyword.AND);
                end = frameBound();
            } else {
                start = frameBound();
            }
            frame = new Expr.Frame(unit, start, end, frameExclusion());
        }
        if (ref == null) {
            return new Expr.Window(partitionBy, orderBy, frame);
        }
        Expr.Window base = windowDefs.get(ref);
        if (base == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "window \"" + ref + "\" does not exist (at position " + refToken.start + ")");
        }
        if (!partitionBy.isEmpty()) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "cannot override PARTITION BY clause of window \"" + ref + "\"");
        }
        if (!orderBy.isEmpty() && !base.orderBy().isEmpty()) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "cannot override ORDER BY clause of window \"" + ref + "\"");
        }
        if (base.frame() != null) {
            boolean bare = !definition && orderBy.isEmpty() && frame == null;
            throw new SqlException(SqlState.WINDOWING_ERROR, "cannot copy window \"" + ref + "\" because it has a frame clause"
                    + (bare ? " (omit the parentheses in this OVER clause)" : ""));
        }
        return new Expr.Window(base.partitionBy(), orderBy.isEmpty() ? base.orderBy() : orderBy, frame);
    }

    /** {@code EXCLUDE CURRENT ROW | GROUP | TIES | NO OTHERS} after a frame, or none. */
    private Expr.Exclusion frameExclusion() {
        if (!peek().isKeyword("EXCLUDE")) {
            return Expr.Exclusion.NO_OTHERS;
        }
        pos++;
        if (acceptKeyword(Keyword.CURRENT)) {
            expectKeyword(Keyword.ROW);
            return Expr.Exclusion.CURRENT_ROW;
        }
        if (acceptKeyword(Keyword.GROUP)) {
            return Expr.Exclusion.GROUP;
        }
        if (peek().isKeyword("TIES")) {
            pos++;
            return Expr.Exclusion.TIES;
        }
        if (peek().isKeyword("NO") && peek(1).isKeyword("OTHERS")) {
            pos += 2;
            return Expr.Exclusion.NO_OTHERS;
        }
        throw error("CURRENT ROW, GROUP, TIES or NO OTHERS after EXCLUDE");
    }

    // ---- constraints (CHECK, FOREIGN KEY, ALTER TABLE ADD/DROP CONSTRAINT) ------------------------

    /** CREATE TABLE's column-level CHECK and REFERENCES constraints go here (null outside CREATE TABLE). */
    private List<Statement.TableConstraint> columnConstraints;
    /** CREATE TABLE's named column-level UNIQUE and PRIMARY KEY constraints. */
    private List<Statement.KeyConstraint> columnKeys;

    /**
     * A table constraint, {@code [CONSTRAINT n] CHECK (e) | UNIQUE (cols) | PRIMARY KEY (cols) |
     * FOREIGN KEY (cols) REFERENCES ...}, or null (nothing read) when a column definition comes.
     */
    private Statement.TableConstraint tableConstraint() {
        String name = null;
        if (acceptKeyword(Keyword.CONSTRAINT)) {
            name = name("constraint name");
        } else if (!(peek().is(Keyword.CHECK) && peek(1).is(Symbol.LPAREN))
                && !(peek().is(Keyword.PRIMARY) && peek(1).is(Keyword.KEY) && peek(2).is(Symbol.LPAREN))
                && !(peek().is(Keyword.UNIQUE) && peek(1).is(Symbol.LPAREN))
                && !(peek().is(Keyword.FOREIGN) && peek(1).is(Keyword.KEY))) {
            return null;
        }
        if (peek().is(Keyword.CHECK)) {
            return checkConstraint(name);
        }
        if (acceptKeyword(Keyword.PRIMARY)) {
            expectKeyword(Keyword.KEY);
            List<String> cols = nameList("primary key column");
            constraintTail();
            return new Statement.TableConstraint(name, Statement.ConstraintKind.PRIMARY_KEY, cols, null, null, null, null, null, null, false);
        }
        if (acceptKeyword(Keyword.UNIQUE)) {
            List<String> cols = nameList("unique column");
            constraintTail();
            return new Statement.TableConstraint(name, Statement.ConstraintKind.UNIQUE, cols, null, null, null, null, null, null, false);
        }
        if (acceptKeyword(Keyword.FOREIGN)) {
            expectKeyword(Keyword.KEY);
            List<String> cols = nameList("foreign key column");
            return references(name, cols);
        }
        throw error("CHECK, UNIQUE, PRIMARY KEY or FOREIGN KEY after CONSTRAINT " + name);
    }

    /** {@code CHECK (e) [NO INHERIT]}. */
    private Statement.TableConstraint checkConstraint(String name) {
        expectKeyword(Keyword.CHECK);
        expectSymbol(Symbol.LPAREN);
        int start = peek().start;
        Expr e = expr();
        String text = sql.substring(start, lastEnd());
        expectSymbol(Symbol.RPAREN);
        if (peek().isKeyword("NO") && peek(1).isKeyword("INHERIT")) {
            pos += 2;
        }
        constraintTail();
        return new Statement.TableConstraint(name, Statement.ConstraintKind.CHECK, List.of(), e, text, null, null, null, null, false);
    }

    /** {@code REFERENCES t [(cols)] [MATCH FULL|SIMPLE] [ON DELETE action] [ON UPDATE action]} of {@code cols}. */
    private Statement.TableConstraint references(String name, List<String> cols) {
        expectKeyword(Keyword.REFERENCES);
        String ref = name("referenced table name");
        List<String> refCols = peek().is(Symbol.LPAREN) ? nameList("referenced column") : null;
        boolean matchFull = false;
        Statement.FkAction onDelete = Statement.FkAction.NO_ACTION;
        Statement.FkAction onUpdate = Statement.FkAction.NO_ACTION;
        List<String> setColumns = null;
        while (true) {
            if (peek().isKeyword("MATCH")) {
                pos++;
                if (acceptKeyword(Keyword.FULL)) {
                    matchFull = true;
                } else if (peek().isKeyword("SIMPLE")) {
                    pos++;
                } else {
                    throw error("FULL or SIMPLE after MATCH");
                }
            } else if (peek().is(Keyword.ON) && (peek(1).is(Keyword.DELETE) || peek(1).is(Keyword.UPDATE))) {
                pos++;
                boolean delete = next().is(Keyword.DELETE);
                Statement.FkAction a = fkAction();
                if ((a == Statement.FkAction.SET_NULL || a == Statement.FkAction.SET_DEFAULT) && peek().is(Symbol.LPAREN)) {
                    if (!delete) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a column list with " + (a == Statement.FkAction.SET_NULL
                                ? "SET NULL" : "SET DEFAULT") + " is only supported for ON DELETE actions");
                    }
                    setColumns = nameList("column name");
                }
                if (delete) {
                    onDelete = a;
                } else {
                    onUpdate = a;
                }
            } else {
                break;
            }
        }
        int deferral = constraintTail();
        return new Statement.TableConstraint(name, Statement.ConstraintKind.FOREIGN_KEY, cols, null, null, ref, refCols,
                onDelete, onUpdate, matchFull, setColumns, deferral);
    }

    private Statement.FkAction fkAction() {
        if (peek().isKeyword("CASCADE")) {
            pos++;
            return Statement.FkAction.CASCADE;
        }
        if (peek().isKeyword("RESTRICT")) {
            pos++;
            return Statement.FkAction.RESTRICT;
        }
        if (peek().isKeyword("NO") && peek(1).isKeyword("ACTION")) {
            pos += 2;
            return Statement.FkAction.NO_ACTION;
        }
        if (peek().is(Keyword.SET) && (peek(1).is(Keyword.NULL) || peek(1).is(Keyword.DEFAULT))) {
            pos++;
            return next().is(Keyword.NULL) ? Statement.FkAction.SET_NULL : Statement.FkAction.SET_DEFAULT;
        }
        throw error("CASCADE, RESTRICT, NO ACTION, SET NULL or SET DEFAULT");
    }

    /** {@code [NOT] DEFERRABLE}, {@code INITIALLY DEFERRED|IMMEDIATE}, {@code NOT VALID}: accepted, checked at once. */
    /**
     * A constraint's {@code [NOT] DEFERRABLE}, {@code INITIALLY DEFERRED | IMMEDIATE}, {@code NOT VALID}:
     * 0 not deferrable, 1 deferrable initially immediate, 2 initially deferred (PostgreSQL: INITIALLY
     * DEFERRED implies DEFERRABLE; NOT DEFERRABLE with INITIALLY DEFERRED is an error).
     */
    private int constraintTail() {
        int deferrable = -1; // -1 unsaid, 0 NOT DEFERRABLE, 1 DEFERRABLE
        boolean deferred = false;
        while (true) {
            if (peek().isKeyword("DEFERRABLE")) {
                pos++;
                deferrable = 1;
            } else if (peek().is(Keyword.NOT) && (peek(1).isKeyword("DEFERRABLE") || peek(1).isKeyword("VALID"))) {
                if (peek(1).isKeyword("DEFERRABLE")) {
                    deferrable = 0;
                }
                pos += 2;
            } else if (peek().isKeyword("INITIALLY")) {
                // consumed or refused, never left: a column definition loops over what follows it
                // (a bare INITIALLY left here spun that loop forever, found by SqlFuzzTest)
                pos++;
                if (!peek().isKeyword("DEFERRED") && !peek().isKeyword("IMMEDIATE")) {
                    throw error("DEFERRED or IMMEDIATE after INITIALLY");
                }
                deferred = next().isKeyword("DEFERRED");
            } else {
                break;
            }
        }
        if (deferred && deferrable == 0) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
        }
        return deferred ? 2 : deferrable == 1 ? 1 : 0;
    }

    private SqlException error(String expected) {
        Token t = peek();
        String found = t.type == Token.Type.END ? "end of statement" : "'" + t.text + "' at position " + (t.start + 1);
        return new SqlException(SqlState.SYNTAX_ERROR, "syntax error: expected " + expected + ", found " + found);
    }

    // ---- partition ----

    /** After CREATE TABLE name: {@code PARTITION OF parent [(constraints)] FOR VALUES ... | DEFAULT [PARTITION BY ...]}. */
    private Statement partitionOf(String table, boolean ifNotExists) {
        pos += 2;
        String parent = name("table name");
        List<Statement.TableConstraint> constraints = new ArrayList<>();
        List<Statement.KeyConstraint> keys = new ArrayList<>();
        List<Statement.ColumnDef> columnOptions = new ArrayList<>();
        if (acceptSymbol(Symbol.LPAREN)) {
            do {
                Statement.TableConstraint c = tableConstraint();
                if (c == null) {
                    columnOptions.add(partitionColumn(constraints));
                } else if (c.kind() == Statement.ConstraintKind.PRIMARY_KEY || c.kind() == Statement.ConstraintKind.UNIQUE) {
                    keys.add(new Statement.KeyConstraint(c.kind() == Statement.ConstraintKind.PRIMARY_KEY, c.columns(), c.name()));
                } else {
                    constraints.add(c);
                }
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
        }
        Statement.PartitionBound bound = partitionBound();
        Statement.PartitionKey key = partitionKey();
        storageOptions();
        return new Statement.CreatePartitionOf(table, parent, ifNotExists, constraints, keys, bound, key, columnOptions);
    }

    /** In PARTITION OF's list: {@code col [WITH OPTIONS] [NOT NULL | NULL | DEFAULT e | UNIQUE | PRIMARY KEY | CHECK (...)] ...}. */
    private Statement.ColumnDef partitionColumn(List<Statement.TableConstraint> constraints) {
        String col = name("column name");
        if (peek().is(Keyword.WITH) && peek(1).isKeyword("OPTIONS")) {
            pos += 2;
        }
        boolean primary = false;
        boolean notNull = false;
        boolean unique = false;
        Expr defaultValue = null;
        String defaultText = null;
        String constraintName = null;
        while (!peek().is(Symbol.COMMA) && !peek().is(Symbol.RPAREN) && peek().type != Token.Type.END) {
            if (acceptKeyword(Keyword.PRIMARY)) {
                expectKeyword(Keyword.KEY);
                primary = true;
            } else if (acceptKeyword(Keyword.NOT)) {
                expectKeyword(Keyword.NULL);
                notNull = true;
            } else if (acceptKeyword(Keyword.NULL)) {
                // nullable: as the parent's
            } else if (acceptKeyword(Keyword.UNIQUE)) {
                unique = true;
            } else if (acceptKeyword(Keyword.DEFAULT)) {
                int start = peek().start;
                defaultValue = unary();
                defaultText = sql.substring(start, lastEnd());
            } else if (acceptKeyword(Keyword.CONSTRAINT)) {
                constraintName = name("constraint name");
                continue;
            } else if (peek().is(Keyword.CHECK)) {
                Statement.TableConstraint c = checkConstraint(constraintName);
                constraints.add(new Statement.TableConstraint(c.name(), c.kind(), List.of(col), c.check(), c.checkText(), null, null,
                        null, null, false));
            } else {
                throw error("a column option (NOT NULL, DEFAULT, UNIQUE, PRIMARY KEY, CHECK)");
            }
            constraintName = null;
        }
        return new Statement.ColumnDef(col, null, primary, notNull, unique, defaultValue, defaultText);
    }

    /** {@code PARTITION BY RANGE|LIST|HASH (key [opclass], ...)} or null when none follows. */
    private Statement.PartitionKey partitionKey() {
        if (!(peek().isKeyword("PARTITION") && peek(1).is(Keyword.BY))) {
            return null;
        }
        pos += 2;
        Token k = next();
        String strategy = k.text.toUpperCase(Locale.ROOT);
        if (!strategy.equals("RANGE") && !strategy.equals("LIST") && !strategy.equals("HASH")) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized partitioning strategy \"" + k.text + "\"");
        }
        expectSymbol(Symbol.LPAREN);
        List<String> keys = new ArrayList<>();
        List<String> opclasses = new ArrayList<>();
        do {
            int start = peek().start;
            expr();
            keys.add(sql.substring(start, lastEnd()));
            if (peek().isKeyword("COLLATE")) {
                pos++;
                name("collation");
            }
            opclasses.add(isName(peek()) && !peek().is(Symbol.COMMA) ? name("operator class") : null);
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        if (strategy.equals("LIST") && keys.size() > 1) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "cannot use \"list\" partition strategy with more than one column");
        }
        return new Statement.PartitionKey(strategy, List.copyOf(keys), java.util.Collections.unmodifiableList(opclasses));
    }

    /** {@code FOR VALUES IN (...) | FROM (...) TO (...) | WITH (MODULUS m, REMAINDER r)} or {@code DEFAULT}. */
    private Statement.PartitionBound partitionBound() {
        if (acceptKeyword(Keyword.DEFAULT)) {
            return new Statement.PartitionBound("DEFAULT", null, null, null, 0, 0);
        }
        if (!(peek().isKeyword("FOR") && peek(1).isKeyword("VALUES"))) {
            throw error("FOR VALUES or DEFAULT");
        }
        pos += 2;
        if (acceptKeyword(Keyword.IN)) {
            return new Statement.PartitionBound("LIST", boundValues(), null, null, 0, 0);
        }
        if (acceptKeyword(Keyword.FROM)) {
            List<String> from = boundValues();
            expectKeyword(Keyword.TO);
            return new Statement.PartitionBound("RANGE", null, from, boundValues(), 0, 0);
        }
        expectKeyword(Keyword.WITH);
        expectSymbol(Symbol.LPAREN);
        int modulus = -1;
        int remainder = -1;
        do {
            Token w = next();
            Token v = next();
            if (v.type != Token.Type.NUMBER) {
                throw error("an integer after " + w.text);
            }
            int n = Integer.parseInt(v.text);
            if (w.isKeyword("MODULUS")) {
                modulus = n;
            } else if (w.isKeyword("REMAINDER")) {
                remainder = n;
            } else {
                throw new SqlException(SqlState.SYNTAX_ERROR, "unrecognized hash partition bound specification \"" + w.text + "\"");
            }
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        if (modulus < 0) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "modulus for hash partition must be specified");
        }
        if (remainder < 0) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "remainder for hash partition must be specified");
        }
        return new Statement.PartitionBound("HASH", null, null, null, modulus, remainder);
    }

    private List<String> boundValues() {
        expectSymbol(Symbol.LPAREN);
        List<String> out = new ArrayList<>();
        do {
            Token t = peek();
            if ((t.isKeyword("MINVALUE") || t.isKeyword("MAXVALUE")) && !isDoubleQuoted(t)
                    && (peek(1).is(Symbol.COMMA) || peek(1).is(Symbol.RPAREN))) {
                pos++;
                out.add(t.text.toUpperCase(Locale.ROOT));
                continue;
            }
            int start = t.start;
            expr();
            out.add(sql.substring(start, lastEnd()));
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        return List.copyOf(out);
    }

    /** {@code ATTACH PARTITION t FOR VALUES ... | DEFAULT}, {@code DETACH PARTITION t [CONCURRENTLY | FINALIZE]}. */
    private Statement.AlterAction partitionAction() {
        boolean attach = next().isKeyword("ATTACH");
        pos++;
        String table = name("table name");
        if (attach) {
            return new Statement.AttachPartition(table, partitionBound());
        }
        if (peek().isKeyword("CONCURRENTLY") || peek().isKeyword("FINALIZE")) {
            pos++;
        }
        return new Statement.DetachPartition(table);
    }

    // ---- arrays ----

    /** After a type name: PostgreSQL's {@code []} / {@code [n]} (repeatable) or {@code ARRAY [n]}, appended as "[]". */
    private String arraySuffix(String base) {
        boolean array = false;
        while (true) {
            if (peek().is(Symbol.LBRACKET)) {
                pos++;
                if (peek().type == Token.Type.NUMBER) {
                    pos++;
                }
                expectSymbol(Symbol.RBRACKET);
                array = true;
            } else if (peek().type == Token.Type.IDENT && peek().end - peek().start == 2 && sql.startsWith("[]", peek().start)) {
                pos++; // the default dialect's lexer reads [] as an empty quoted name
                array = true;
            } else if (Dialect.postgres() && peek().isKeyword("ARRAY") && !peek(1).is(Symbol.LBRACKET)
                    && !peek(1).is(Symbol.LPAREN)) {
                pos++;
                array = true;
            } else if (Dialect.postgres() && peek().isKeyword("ARRAY") && peek(1).is(Symbol.LBRACKET)
                    && peek(2).type == Token.Type.NUMBER && peek(3).is(Symbol.RBRACKET)) {
                pos += 4;
                array = true;
            } else {
                break;
            }
        }
        return array ? base + "[]" : base;
    }

    /** {@code ARRAY[e, ...]} (nested brackets are sub-arrays) or {@code ARRAY(query)}. */
    private Expr arrayConstructor(Token t) {
        pos++; // ARRAY
        if (peek().is(Symbol.LPAREN)) {
            // ARRAY(query): (SELECT ARRAY_OR_EMPTY(array_agg(x)) FROM (query) AS "?array?"(x)), '{}' without rows
            pos++;
            Query q = query();
            expectSymbol(Symbol.RPAREN);
            int s = t.start;
            int e = lastEnd();
            Expr x = new Expr.Column("?array?", "?column?", s, e);
            Expr agg = new Expr.Function("ARRAY_AGG", List.of(x), false, false, null, s, e);
            Expr value = new Expr.Function("ARRAY_OR_EMPTY", List.of(agg), false, false, null, s, e);
            Query.Select sel = new Query.Select(false, List.of(new Query.Item(value, "array")),
                    new Query.Derived(q, "?array?", List.of("?column?"), s, e), null, List.of(), null, List.of(), null, null,
                    false, s, e);
            return new Expr.ScalarQuery(sel, s, e);
        }
        return arrayBrackets(t.start);
    }

    private Expr arrayBrackets(int start) {
        expectSymbol(Symbol.LBRACKET);
        List<Expr> items = new ArrayList<>();
        if (!peek().is(Symbol.RBRACKET)) {
            do {
                items.add(peek().is(Symbol.LBRACKET) ? arrayBrackets(peek().start) : expr());
            } while (acceptSymbol(Symbol.COMMA));
        }
        expectSymbol(Symbol.RBRACKET);
        return new Expr.Function("ARRAY", items, false, false, null, start, lastEnd());
    }

    /** {@code e[i]...} or {@code e[lo:hi]...}: one call for all the brackets that follow. */
    private Expr subscripts(Expr e) {
        List<Expr> index = new ArrayList<>();
        List<Expr> slice = new ArrayList<>();
        boolean sliced = false;
        while (peek().is(Symbol.LBRACKET)) {
            Token open = next();
            Expr lo = peek().is(Symbol.COLON) ? null : expr();
            if (acceptSymbol(Symbol.COLON)) {
                sliced = true;
                Expr hi = peek().is(Symbol.RBRACKET) ? null : expr();
                slice.add(lo == null ? new Expr.Literal(Expr.LiteralKind.INTEGER, "1", open.start, open.end) : lo);
                slice.add(hi == null ? new Expr.Literal(Expr.LiteralKind.INTEGER, "2147483647", open.start, open.end) : hi);
            } else {
                slice.add(new Expr.Literal(Expr.LiteralKind.INTEGER, "1", open.start, open.end));
                slice.add(lo);
            }
            index.add(lo);
            expectSymbol(Symbol.RBRACKET);
        }
        List<Expr> args = new ArrayList<>();
        args.add(e);
        args.addAll(sliced ? slice : index);
        return new Expr.Function(sliced ? "ARRAY_SLICE" : "ARRAY_SUBSCRIPT", args, false, false, null, e.start(), lastEnd());
    }

    /** {@code SET col[i][j] = x}: the column set to ARRAY_SET(col, x, i, j). */
    private Statement.Assignment elementAssignment(Token colToken, String col) {
        List<Expr> args = new ArrayList<>();
        args.add(new Expr.Column(null, col, colToken.start, colToken.end));
        List<Expr> index = new ArrayList<>();
        while (acceptSymbol(Symbol.LBRACKET)) {
            index.add(expr());
            expectSymbol(Symbol.RBRACKET);
        }
        expectSymbol(Symbol.EQ);
        Expr value = expr();
        args.add(value);
        args.addAll(index);
        return new Statement.Assignment(col, new Expr.Function("ARRAY_SET", args, false, false, null, colToken.start, lastEnd()));
    }

    /** ANY, SOME or ALL and a parenthesis {@code k} tokens ahead (after a comparison operator). */
    private boolean quantifiedAt(int k) {
        Token q = peek(k);
        return (q.is(Keyword.ANY) || q.is(Keyword.SOME) || q.is(Keyword.ALL)) && peek(k + 1).is(Symbol.LPAREN);
    }

    /**
     * {@code left op ANY|SOME|ALL (array)} as ARRAY_ANY_op / ARRAY_ALL_op; with a query,
     * {@code = ANY} is IN and {@code <> ALL} is NOT IN (the other forms are not supported).
     */
    private Expr quantified(Expr left, Expr.BinaryOp op) {
        Token q = next();
        boolean all = q.is(Keyword.ALL);
        expectSymbol(Symbol.LPAREN);
        if (startsQuery(pos)) {
            Query query = query();
            expectSymbol(Symbol.RPAREN);
            if (op == Expr.BinaryOp.EQ && !all) {
                return new Expr.InQuery(left, query, false, left.start(), lastEnd());
            }
            if (op == Expr.BinaryOp.NE && all) {
                return new Expr.InQuery(left, query, true, left.start(), lastEnd());
            }
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, op.symbol + " " + q.text.toUpperCase(Locale.ROOT)
                    + " (subquery) is not supported; use IN / NOT IN or EXISTS");
        }
        Expr arr = expr();
        expectSymbol(Symbol.RPAREN);
        return new Expr.Function((all ? "ARRAY_ALL_" : "ARRAY_ANY_") + op.name(), List.of(left, arr), false, false, null,
                left.start(), lastEnd());
    }
}
