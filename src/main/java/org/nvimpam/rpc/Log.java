package org.nvimpam.rpc;

import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A class's log: java.util.logging, reached only once something is logged. Setting it up (the
 * LogManager and its configuration) costs a cold JVM about 30 ms, so no class holds a
 * {@link Logger} from its static initialiser. Records go to the logger named after the class, as
 * before, so a logging configuration and handlers still apply, and with the class as their
 * source (not this one).
 */
public final class Log {
  private final String name;
  private volatile Logger logger;

  private Log(String name) {
    this.name = name;
  }

  /** The log of {@code owner}. */
  public static Log of(Class<?> owner) {
    return new Log(owner.getName());
  }

  public void warning(String message, Throwable thrown) {
    logger().logp(Level.WARNING, name, null, message, thrown);
  }

  public void warning(Supplier<String> message) {
    logger().logp(Level.WARNING, name, null, message);
  }

  public void fine(String message, Throwable thrown) {
    logger().logp(Level.FINE, name, null, message, thrown);
  }

  public void fine(Supplier<String> message) {
    logger().logp(Level.FINE, name, null, message);
  }

  private Logger logger() {
    Logger l = logger;
    if (l == null) logger = l = Logger.getLogger(name);
    return l;
  }
}
