export interface Edge {
  to: string;
  kind: 'static' | 'type' | 'lazy';
}
export declare function specifiers(
  path: string,
  text: string,
): { spec: string; kind: Edge['kind'] }[];
export declare function importGraph(root: string): Map<string, Edge[]>;
export declare function circles(graph: Map<string, Edge[]>): string[][];
export declare function circleEdges(graph: Map<string, Edge[]>, group: string[]): string[];
