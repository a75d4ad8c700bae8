package io.troupe.shell;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoredState;

/**
 * What {@code troupe:state-list}, {@code troupe:state-export}, {@code troupe:state-import} and
 * {@code troupe:tenant-purge} do, over the {@link StateStore} service. Each prints its result, or one line
 * {@code ERROR <code>: <detail>} and throws ({@link StateCommandException}), so that Gogo reports a failed
 * command.
 *
 * <pre>
 *   g! troupe:state-list demo
 *   TENANT  ORIGIN               PATH                       BYTES  WRITTEN
 *   demo    handler:counter.add  handler:counter.add@demo   2      2026-12-02T05:40:12.345Z
 *   1 stored actor, 2 bytes
 * </pre>
 *
 * <p><b>Threading:</b> Gogo calls the commands from any session thread; the suppliers are read once per
 * command and nothing else is kept.
 */
final class StateCommands {

    /** How long an import waits for its writes to be durable. */
    static final Duration IMPORT_TIMEOUT = Duration.ofSeconds(60);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final Supplier<StateStore> store;
    private final Supplier<List<String>> knownTenants;

    /**
     * @param store        the StateStore service, or null when none is registered
     * @param knownTenants the tenants the server knows (empty without the server), for a list without tenant
     */
    StateCommands(Supplier<StateStore> store, Supplier<List<String>> knownTenants) {
        this.store = store;
        this.knownTenants = knownTenants;
    }

    /** {@code troupe:state-list [TENANT]}: every known tenant's stored actors (and those of no tenant), or one's. */
    void list(PrintStream out, List<Object> arguments) throws StateCommandException {
        try {
            if (arguments.size() > 1) {
                throw usage("troupe:state-list [<tenant id>]");
            }
            StateStore current = requireStore();
            List<String> tenants = new ArrayList<>();
            if (arguments.isEmpty()) {
                TreeSet<String> known = new TreeSet<>(knownTenants.get());
                known.add("");
                tenants.addAll(known);
            } else {
                tenants.add(String.valueOf(arguments.get(0)));
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"TENANT", "ORIGIN", "PATH", "BYTES", "WRITTEN"});
            long bytes = 0;
            for (String tenant : tenants) {
                for (StoredState state : list(current, tenant)) {
                    StateKey key = state.key();
                    rows.add(new String[] {key.tenant().isEmpty() ? "-" : key.tenant(), key.origin(), key.path(),
                            Integer.toString(state.bytes()), TIME.format(state.writtenAt())});
                    bytes += state.bytes();
                }
            }
            if (rows.size() == 1) {
                out.println(arguments.isEmpty() ? "(no stored actors)" : "(no stored actors for tenant '"
                        + tenants.get(0) + "')");
                return;
            }
            Columns.print(out, rows);
            int count = rows.size() - 1;
            out.println(count + (count == 1 ? " stored actor, " : " stored actors, ") + bytes + " bytes");
            if (arguments.isEmpty()) {
                out.println("(tenants the server knows, and actors of no tenant; another tenant's: troupe:state-list "
                        + "<tenant id>)");
            }
        } catch (StateCommandException e) {
            throw printed(out, e);
        }
    }

    /** {@code troupe:state-export TENANT FILE}: the tenant's snapshots into a new file ({@link StateArchive}). */
    void export(PrintStream out, Path currentDir, List<Object> arguments) throws StateCommandException {
        try {
            if (arguments.size() != 2) {
                throw usage("troupe:state-export <tenant id> <file>");
            }
            StateStore current = requireStore();
            String tenant = String.valueOf(arguments.get(0));
            Path file = resolve(currentDir, String.valueOf(arguments.get(1)));
            if (Files.exists(file)) {
                throw new StateCommandException(StateCommandException.EXISTS, file + " exists; export to a new file");
            }
            List<StateArchive.Entry> entries = new ArrayList<>();
            long bytes = 0;
            for (StoredState state : list(current, tenant)) {
                Optional<byte[]> snapshot = read(current, state.key());
                if (snapshot.isPresent()) { // else deleted since it was listed
                    entries.add(new StateArchive.Entry(state.key(), state.writtenAt(), snapshot.get()));
                    bytes += snapshot.get().length;
                }
            }
            try {
                new StateArchive(tenant, Instant.now(), entries).write(file);
            } catch (IOException e) {
                throw new StateCommandException(StateCommandException.IO, "cannot write " + file + ": " + e);
            }
            out.println("exported " + entries.size() + (entries.size() == 1 ? " actor" : " actors") + " of tenant '"
                    + tenant + "' (" + bytes + " bytes) to " + file);
        } catch (StateCommandException e) {
            throw printed(out, e);
        }
    }

    /** {@code troupe:state-import FILE}: writes every snapshot of an export back into the store. */
    void importFile(PrintStream out, Path currentDir, List<Object> arguments)
            throws StateCommandException, InterruptedException {
        try {
            if (arguments.size() != 1) {
                throw usage("troupe:state-import <file>");
            }
            StateStore current = requireStore();
            Path file = resolve(currentDir, String.valueOf(arguments.get(0)));
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new StateCommandException(StateCommandException.IO, "cannot read " + file + ": " + e);
            }
            StateArchive archive = StateArchive.read(file.toString(), bytes);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (StateArchive.Entry entry : archive.entries()) {
                writes.add(current.write(entry.key(), entry.snapshot()).toCompletableFuture());
            }
            try {
                CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0]))
                        .get(IMPORT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new StateCommandException(StateCommandException.IO, "the store refused the import of " + file
                        + ": " + e.getCause() + " (entries written before the failure stay)");
            } catch (TimeoutException e) {
                throw new StateCommandException(StateCommandException.IO, "the store did not write the import of "
                        + file + " within " + IMPORT_TIMEOUT.toSeconds() + " s");
            }
            out.println("imported " + archive.entries().size() + (archive.entries().size() == 1 ? " actor" : " actors")
                    + " of tenant '" + archive.tenant() + "' exported at " + TIME.format(archive.exportedAt())
                    + " from " + file);
            out.println("actors running now keep their state in memory and write it over the import: restart Troupe, "
                    + "or remove and add the tenant, for them to start from it");
        } catch (StateCommandException e) {
            throw printed(out, e);
        }
    }

    /**
     * {@code troupe:tenant-purge [--yes] TENANT}: without {@code --yes} prints what would be removed and
     * removes nothing; with it, removes the tenant's stored state.
     */
    void purge(PrintStream out, List<Object> arguments) throws StateCommandException {
        try {
            List<String> words = new ArrayList<>();
            boolean yes = false;
            for (Object argument : arguments) {
                String word = String.valueOf(argument);
                if (word.equals("--yes") || word.equals("-y")) {
                    yes = true;
                } else {
                    words.add(word);
                }
            }
            if (words.size() != 1) {
                throw usage("troupe:tenant-purge [--yes] <tenant id>");
            }
            String tenant = words.get(0);
            StateStore current = requireStore();
            boolean configured = knownTenants.get().contains(tenant);
            if (!yes) {
                List<StoredState> stored = list(current, tenant);
                long bytes = stored.stream().mapToLong(StoredState::bytes).sum();
                out.println("tenant '" + tenant + "' has " + stored.size() + " stored "
                        + (stored.size() == 1 ? "actor" : "actors") + " (" + bytes + " bytes); nothing was removed");
                for (StoredState state : stored) {
                    out.println("  " + state.key().origin() + "  " + state.key().path() + "  " + state.bytes()
                            + " bytes");
                }
                out.println("to remove them for good: troupe:tenant-purge --yes " + tenant);
                if (configured) {
                    out.println(configuredWarning(tenant));
                }
                return;
            }
            int removed;
            try {
                removed = current.purge(tenant);
            } catch (IOException e) {
                throw new StateCommandException(StateCommandException.IO, "cannot purge tenant '" + tenant + "': "
                        + e.getMessage());
            }
            out.println("purged tenant '" + tenant + "': " + removed + " stored "
                    + (removed == 1 ? "actor" : "actors") + " removed");
            if (configured) {
                out.println(configuredWarning(tenant));
            }
        } catch (StateCommandException e) {
            throw printed(out, e);
        }
    }

    private static String configuredWarning(String tenant) {
        return "warning: tenant '" + tenant + "' is still configured: its running durable actors write their state "
                + "again; remove etc/io.troupe.tenant-" + tenant + ".cfg first to purge it for good";
    }

    private StateStore requireStore() throws StateCommandException {
        StateStore current = store.get();
        if (current == null) {
            throw new StateCommandException(StateCommandException.UNAVAILABLE, "no state store is running (is bundle "
                    + "io.troupe.store active? see log/troupe.log)");
        }
        return current;
    }

    private static List<StoredState> list(StateStore store, String tenant) throws StateCommandException {
        try {
            return store.list(tenant);
        } catch (IOException | RuntimeException e) {
            throw new StateCommandException(StateCommandException.IO, "cannot list tenant '" + tenant + "': "
                    + e.getMessage());
        }
    }

    private static Optional<byte[]> read(StateStore store, StateKey key) throws StateCommandException {
        try {
            return store.read(key);
        } catch (IOException | RuntimeException e) {
            throw new StateCommandException(StateCommandException.IO, "cannot read " + key + ": " + e.getMessage());
        }
    }

    private static Path resolve(Path currentDir, String path) throws StateCommandException {
        String text = path.strip();
        if (text.isEmpty()) {
            throw new StateCommandException(StateCommandException.USAGE, "a file is required");
        }
        try {
            return currentDir.resolve(text).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new StateCommandException(StateCommandException.USAGE, "'" + text + "' is not a valid path: "
                    + e.getReason());
        }
    }

    private static StateCommandException usage(String synopsis) {
        return new StateCommandException(StateCommandException.USAGE, "usage: " + synopsis);
    }

    private static StateCommandException printed(PrintStream out, StateCommandException e) {
        out.println(ReplyFormat.error(e.code(), e.detail()));
        return e;
    }
}
