import io.respsql.engine.SqlEngine;
import io.respsql.protocol.RespWriter;
import io.respsql.protocol.TypedRows;

import java.util.function.BiConsumer;

/** Runs a statement with its result in the typed form, as the QUERY command does. */
public class TypedRunner implements BiConsumer<SqlEngine, String> {
    private final RespWriter w;
    private final TypedRows typed = new TypedRows();

    public TypedRunner(RespWriter w) {
        this.w = w;
    }

    @Override
    public void accept(SqlEngine e, String sql) {
        e.execute(sql, w, typed.on(w));
    }
}
