/**
 * The host's SLF4J 2.x provider, asynchronous: every bundle that imports {@code org.slf4j} from the
 * host (as 2.0 or as 1.7) logs through these classes. Callers never touch the disk; one logger
 * thread does.
 *
 * <pre>
 *  any bundle ──► org.slf4j.LoggerFactory   (embedded in and exported by the host)
 *                      │ ServiceLoader, META-INF/services/org.slf4j.spi.SLF4JServiceProvider
 *                      ▼
 *               TroupeServiceProvider ──initialize()──► TroupeLogging (facade) ◄── HostActivator
 *                                                         │  LogConfigWatch ◄── system properties troupe.log.*
 *               TroupeLoggerFactory ◄─thresholds, live────┤   LogSettings ◄── etc/io.troupe.log.cfg
 *                      │ one per name                     │   (typed model LogConfiguration; LogConfigFile)
 *                      │                                  │  LogWriter: the outputs and the troupe-logger thread
 *               TroupeLogger (any thread)                 │
 *                 level check, {} formatting              │
 *                      │ write(level, name, message, thrown, fatal)
 *                      ▼                                  │
 *               RecordFormat: UTF-8 bytes on the caller's thread, into its RecordBytes,
 *                      │          LogLineFormat (format = text) or JsonLineFormat (format = json)
 *                      │          (reused per thread: rendering ASCII allocates nothing),
 *                      │          with the caller's MDC and the RecordContext's entries
 *                      │          (TurnRecordContext: the actor and tenant of a worker's turn)
 *                      │                     │ fatal: under the I/O lock, drain + write + force, then return
 *                      ▼ offer: CAS claim + arraycopy, no lock, no I/O
 *               RecordQueue: Segment ─► Segment ─► … ─► current Segment   (4 KiB, doubling, capped;
 *                      │                                                   drops counted past the cap)
 *                      │ troupe-logger thread (LogWriter): timed park (flushIntervalMillis) or unpark
 *                      ▼ under the I/O lock: seal current, write sealed segments in order
 *               Outputs ──► RollingFile  (&lt;troupe.home&gt;/log/troupe.log, .1 … .N, FileChannel)
 *                       └─► ConsoleOutput (stderr, in a terminal or without a file)
 * </pre>
 *
 * <h2>Threading</h2>
 * Loggers are called from any thread. A caller formats its record into bytes and copies them into
 * the current segment of the {@link io.troupe.host.log.RecordQueue}: a CAS on the segment's claim
 * counter, an array copy, an atomic add; no lock and no I/O. The {@code troupe-logger} thread seals
 * the current segment (producers move on to a fresh one, the seed's buffer swap) and writes sealed
 * segments with a {@link java.nio.channels.FileChannel} while holding the I/O lock, which callers
 * take only for fatal records. Records of one thread reach the file in the order they were logged.
 * Every class states its own contract.
 *
 * <h2>Class loaders</h2>
 * Nothing here keeps a reference to another bundle's objects: messages, arguments and throwables are
 * rendered to bytes on the calling thread, and loggers are cached by name only. The other way round,
 * every thread that logs keeps its {@link io.troupe.host.log.RecordBytes} in a thread-local: after a
 * refresh of the host, a thread that logged through the old instance pins the old class loader
 * until it ends. The logger thread has
 * no context class loader; the only static state is slf4j's own {@code LoggerFactory}/{@code MDC},
 * which live in the host bundle.
 */
package io.troupe.host.log;
