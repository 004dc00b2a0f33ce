/** A peer's text extraction: the whole document's plain text. */
export type ExtractText = (bytes: Uint8Array) => Promise<string>;

/** A PDF library quarry is measured against. */
export interface TextPeer {
  /** The package name as installed beside @quarry/nodes (an npm alias for pdf-parse 1.1.1). */
  readonly package: string;
  /** Imports and initialises the library once; returns its text extraction. */
  load(): Promise<ExtractText>;
}

/** Each peer by the name the bench reports it under. */
export declare const TEXT_PEERS: Readonly<Record<'pdf-parse@1.1.1' | 'pdf-parse@2.4.5' | 'pdfjs-dist' | 'pdfium-wasm' | 'liteparse' | 'pdf-inspector', TextPeer>>;

/** The names of {@link TEXT_PEERS}. */
export type TextPeerName = keyof typeof TEXT_PEERS;

/** The installed version of a peer's package, undefined when it is not installed. */
export declare function peerVersion(name: TextPeerName): string | undefined;
