// Preload (placeholder until issue 3).
export {};
