package io.respsql.sql;

import java.util.List;

/** Statement syntax trees, one record per statement kind. */
public sealed interface Statement {

    record ColumnDef(String name, String typeName, boolean primaryKey) {
    }

    record CreateTable(String table, List<ColumnDef> columns, String primaryKeyColumn, boolean ifNotExists) implements Statement {
    }

    record CreateIndex(String index, String table, String column) implements Statement {
    }

    record DropTable(String table, boolean ifExists) implements Statement {
    }

    record DropIndex(String index) implements Statement {
    }

    record Describe(String table) implements Statement {
    }

    record Dump(String table) implements Statement {
    }

    record ShowTables() implements Statement {
    }

    /** {@code SHOW INDEXES [FROM t]}; {@code table} is null for every table's indexes. */
    record ShowIndexes(String table) implements Statement {
    }

    /** {@code columns} is null when the statement lists none (all columns in table order). */
    record Insert(String table, List<String> columns, List<List<Expr>> rows, boolean returnSize) implements Statement {
    }

    /** A select-list entry; {@code expr} null means {@code *}. */
    record SelectItem(Expr expr) {
    }

    record OrderBy(Expr expr, boolean descending) {
    }

    record TableRef(String table) {
    }

    /** {@code limit} is -1 when absent. */
    record Select(List<SelectItem> items, List<TableRef> from, Expr where, List<OrderBy> orderBy,
                  long limit, long offset) implements Statement {
    }

    record Assignment(String column, Expr value) {
    }

    record Update(String table, List<Assignment> assignments, Expr where) implements Statement {
    }

    record Delete(String table, Expr where) implements Statement {
    }

    record Explain(Statement statement) implements Statement {
    }
}
