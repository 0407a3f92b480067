package org.nvimpam.strategy;

import org.nvimpam.rpc.Decoder;

/** Decoders for replies whose value does not matter, only whether it is an error. */
final class Replies {
  static final Decoder<Void> IGNORE = in -> {
    in.skipValue();
    return null;
  };

  private Replies() {}
}
