package io.respsql.engine;

import io.respsql.result.Outcome;
import io.respsql.sql.tree.Statement;

/**
 * Runs CREATE/ALTER/DROP USER|ROLE, GRANT and REVOKE against the server's ACL users
 * (io.respsql.acl). Their outcomes are never logged to the append-only file nor replicated (a
 * password must not reach either): users persist through the ACL file (ACL SAVE).
 */
public interface UserStatements {
    /** Whether {@code st} is one of these statements. */
    static boolean is(Statement st) {
        return st instanceof Statement.CreateUser || st instanceof Statement.AlterUser || st instanceof Statement.DropUser
                || st instanceof Statement.Grant || st instanceof Statement.Revoke;
    }

    Outcome run(Statement st);
}
