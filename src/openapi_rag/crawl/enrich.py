"""placeholder"""
def enrich(result, llm, report):
    return None
