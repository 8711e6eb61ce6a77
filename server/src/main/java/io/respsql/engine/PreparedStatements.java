package io.respsql.engine;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.PreparedDef;
import io.respsql.storage.PreparedDef.Param;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;

import java.util.ArrayList;
import java.util.List;

/**
 * Named statements with {@code ?} parameters: {@code PREPARE name <statement>}, {@code EXECUTE name
 * [value ...]}, {@code DEALLOCATE name}. A parameter is typed when the statement is prepared, from
 * where it stands: the column it is compared with or assigned to (SET, INSERT VALUES); elsewhere
 * the value decides (a number or text). EXECUTE checks each value against its parameter's type,
 * then runs the statement with the values in place of the {@code ?}s as literals: the plan cache
 * makes that a cached plan's run, and the log and replicas see an ordinary statement.
 * PREPARE and DEALLOCATE are logged like writes; the definitions ({@link PreparedDef}) live in the
 * catalog, so snapshots (SAVE, BGSAVE, a log rewrite's preamble, a replica's full sync) carry them
 * and a block's rollback takes them back.
 */
final class PreparedStatements {
    /** Where the definitions live: with the tables, so snapshots, replicas and block rollbacks carry them. */
    private final Catalog catalog;

    PreparedStatements(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Whether {@code sql} is PREPARE, EXECUTE or DEALLOCATE (its first word). */
    static String verb(String sql) {
        int i = io.respsql.sql.Lexer.skipBlank(sql, 0);
        int n = sql.length();
        for (String v : new String[] {"PREPARE", "DEALLOCATE", "EXECUTE"}) {
            int end = i + v.length();
            if (sql.regionMatches(true, i, v, 0, v.length()) && (end == n || Character.isWhitespace(sql.charAt(end)))) {
                return v;
            }
        }
        return null;
    }

    /** The words after the verb: name, then the rest (the statement), for PREPARE and DEALLOCATE. */
    static String[] nameAndRest(String sql, String verb) {
        String rest = sql.substring(io.respsql.sql.Lexer.skipBlank(sql, 0) + verb.length()).strip();
        int sp = 0;
        while (sp < rest.length() && !Character.isWhitespace(rest.charAt(sp))) {
            sp++;
        }
        return new String[] {rest.substring(0, sp), rest.substring(sp).strip()};
    }

    /**
     * PREPARE: parses and types the statement, then hands the definition to {@code undo} (null
     * outside a block) before it replaces a statement of the same name: a failure leaves both as they were.
     */
    void prepare(String name, String text, UndoLog undo) {
        if (name.isEmpty()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "PREPARE needs a name and a statement: PREPARE <name> <statement>");
        }
        if (text.isEmpty()) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "PREPARE " + name + " needs a statement");
        }
        List<Integer> at = new ArrayList<>();
        StringBuilder probe = new StringBuilder(text);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int comment = io.respsql.sql.Lexer.commentEnd(text, i);
            if (comment != i) { // a ? in a comment is no parameter (an open comment: the parse reports it)
                i = comment < 0 ? text.length() : comment - 1;
            } else if (c == '\'' || c == '"' || c == '`') {
                int close = i + 1;
                while (close < text.length() && text.charAt(close) != c) {
                    close++;
                }
                i = close;
            } else if (c == '?') {
                at.add(i);
                probe.setCharAt(i, '0'); // same length: the syntax tree's spans locate each parameter
            }
        }
        Statement st = SqlParser.parse(probe.toString());
        if (st instanceof Statement.Explain || verb(text) != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "PREPARE " + name + ": EXPLAIN, PREPARE, EXECUTE and DEALLOCATE cannot be prepared");
        }
        int[] marks = at.stream().mapToInt(Integer::intValue).toArray();
        Param[] params = new Param[marks.length];
        new Typing(catalog, st, marks, params).run();
        List<Param> ps = new ArrayList<>();
        for (Param p : params) {
            ps.add(p == null ? new Param(null, null) : p);
        }
        PreparedDef def = new PreparedDef(name, text, marks, ps);
        if (undo != null) {
            undo.preparedChanging(name);
        }
        catalog.putPrepared(def);
    }

    /** DEALLOCATE: false when there is no such statement (nothing recorded then). */
    boolean deallocate(String name, UndoLog undo) {
        if (catalog.prepared(name) == null) {
            return false;
        }
        if (undo != null) {
            undo.preparedChanging(name);
        }
        catalog.removePrepared(name);
        return true;
    }

    /** The statement EXECUTE runs: the values checked against the parameters' types, in place of the {@code ?}s. */
    String bind(String name, List<String> values) {
        PreparedDef p = catalog.prepared(name);
        if (p == null) {
            throw new SqlException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement '" + name + "' does not exist");
        }
        int n = p.paramCount();
        if (values.size() != n) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "prepared statement '" + name + "' takes " + n + " value(s), not " + values.size());
        }
        String text = p.text();
        StringBuilder b = new StringBuilder(text.length() + 16 * n);
        int from = 0;
        for (int i = 0; i < n; i++) {
            b.append(text, from, p.mark(i));
            b.append(literal(p, i, values.get(i)));
            from = p.mark(i) + 1;
        }
        return b.append(text, from, text.length()).toString();
    }

    private static String literal(PreparedDef p, int i, String v) {
        Param param = p.params().get(i);
        ColumnType t = param.type();
        if (t == null) {
            return isNumber(v) ? v : quote(v);
        }
        switch (t) {
            case INT:
            case BIGINT: {
                long x;
                try {
                    x = Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
                } catch (NumberFormatException e) {
                    throw misfit(p, i, v, param);
                }
                if (t == ColumnType.INT && x != (int) x) {
                    throw misfit(p, i, v, param);
                }
                return Long.toString(x);
            }
            case FLOAT:
                double special = io.respsql.expr.Doubles.special(v);
                if (special != 0.0) {
                    return "CAST(" + quote(v.trim()) + " AS FLOAT)"; // NaN, Infinity: a value in any context
                }
                if (!isNumber(v)) {
                    throw misfit(p, i, v, param);
                }
                return v;
            case BOOLEAN:
                if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false") || v.equals("0") || v.equals("1")) {
                    return v;
                }
                throw misfit(p, i, v, param);
            default:
                return quote(v); // TEXT, DATE, TIMESTAMP: the statement reads the text as its column does
        }
    }

    private static SqlException misfit(PreparedDef p, int i, String v, Param param) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "value '" + v + "' for parameter " + (i + 1) + " of prepared statement '" + p.name()
                + "' does not fit its type " + param.type() + " (column '" + param.column() + "')");
    }

    private static boolean isNumber(String v) {
        if (v.isEmpty()) {
            return false;
        }
        try {
            Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return false;
        }
        char last = v.charAt(v.length() - 1);
        return Character.isDigit(last) || last == '.'; // not "NaN", "Infinity", "1d", "1f"
    }

    private static String quote(String v) {
        return "'" + v.replace("'", "''") + "'";
    }

    /** Finds each parameter's column from its context in the statement. */
    private static final class Typing {
        private final Catalog catalog;
        private final Statement st;
        private final int[] marks;
        private final Param[] params;
        private final List<Table> tables = new ArrayList<>();

        Typing(Catalog catalog, Statement st, int[] marks, Param[] params) {
            this.catalog = catalog;
            this.st = st;
            this.marks = marks;
            this.params = params;
        }

        void run() {
            if (st instanceof Statement.QueryStatement q) {
                query(q.query());
            } else if (st instanceof Statement.Update u) {
                table(u.table());
                for (Statement.Assignment a : u.assignments()) {
                    Column c = column(a.column());
                    if (c != null) {
                        mark(a.value(), c);
                    }
                    expr(a.value());
                }
                expr(u.where());
            } else if (st instanceof Statement.Delete d) {
                table(d.table());
                expr(d.where());
            } else if (st instanceof Statement.Insert ins) {
                Table t = table(ins.table());
                if (ins.rows() != null) {
                    for (List<Expr> row : ins.rows()) {
                        for (int j = 0; j < row.size(); j++) {
                            Column c = null;
                            if (t != null && ins.columns() != null && j < ins.columns().size()) {
                                c = t.column(ins.columns().get(j));
                            } else if (t != null && ins.columns() == null && j < t.columnCount()) {
                                c = t.column(j);
                            }
                            if (c != null) {
                                mark(row.get(j), c);
                            }
                        }
                    }
                }
                if (ins.query() != null) {
                    query(ins.query());
                }
            }
        }

        private Table table(String name) {
            Table t = catalog.table(name);
            if (t != null) {
                tables.add(t);
            }
            return t;
        }

        private void query(Query q) {
            if (q instanceof Query.Select s) {
                from(s.from());
                expr(s.where());
                expr(s.having());
            } else if (q instanceof Query.SetOp o) {
                query(o.left());
                query(o.right());
            }
        }

        private void from(Query.FromItem f) {
            if (f instanceof Query.TableRef r) {
                table(r.name());
            } else if (f instanceof Query.Join j) {
                from(j.left());
                from(j.right());
                expr(j.on());
            } else if (f instanceof Query.Derived d) {
                query(d.query());
            }
        }

        private Column column(String name) {
            for (Table t : tables) {
                Column c = t.column(name);
                if (c != null) {
                    return c;
                }
            }
            return null;
        }

        /** Types a parameter that is {@code e} (under unary signs) from column {@code c}. */
        private void mark(Expr e, Column c) {
            while (e instanceof Expr.Unary u && u.op() != Expr.UnaryOp.NOT) {
                e = u.operand();
            }
            if (e instanceof Expr.Literal l) {
                for (int i = 0; i < marks.length; i++) {
                    if (marks[i] == l.start() && l.end() == l.start() + 1 && params[i] == null) {
                        params[i] = new Param(c.type(), c.name());
                    }
                }
            }
        }

        private Column columnOf(Expr e) {
            return e instanceof Expr.Column c ? column(c.name()) : null;
        }

        private void expr(Expr e) {
            if (e instanceof Expr.Binary b) {
                if (b.op().isComparison()) {
                    Column l = columnOf(b.left());
                    Column r = columnOf(b.right());
                    if (l != null) {
                        mark(b.right(), l);
                    }
                    if (r != null) {
                        mark(b.left(), r);
                    }
                }
                expr(b.left());
                expr(b.right());
            } else if (e instanceof Expr.Between x) {
                Column c = columnOf(x.operand());
                if (c != null) {
                    mark(x.low(), c);
                    mark(x.high(), c);
                }
            } else if (e instanceof Expr.InList x) {
                Column c = columnOf(x.operand());
                if (c != null) {
                    for (Expr v : x.values()) {
                        mark(v, c);
                    }
                }
            } else if (e instanceof Expr.Unary u) {
                expr(u.operand());
            }
        }
    }
}
