package io.respsql.engine;

import io.respsql.sql.tree.Statement;

/**
 * Whether the connection running a statement may: its ACL user's check (io.respsql.acl), set on
 * the engine for one statement ({@link SqlEngine#access}). Absent (null) for an unrestricted user,
 * so the default configuration pays nothing.
 */
public interface StatementAccess {
    /** Null when {@code st} may run; else the error reply (SQLSTATE 42501). */
    String check(Statement st);

    /** Null when the statement verb {@code verb} (prepare, deallocate, copy) on {@code table} (may be null) may run. */
    String checkVerb(String verb, String table, boolean write);
}
