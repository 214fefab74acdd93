"""Data transcribed once from the t-closeness slides (source 003), shared by the tests.

Figure 1: the disease hierarchy (respiratory and digestive system diseases).
"""
FIGURE1_BODY = {
    "Respiratory system diseases": {
        "Respiratory infection": ["flu", "pneumonia", "bronchitis"],
        "Vascular lung diseases": ["pulmonary edema", "pulmonary embolism"]},
    "Digestive system diseases": {
        "Stomach diseases": ["gastric ulcer", "gastritis", "stomach cancer"],
        "Colon diseases": ["colitis", "colon cancer"]}}

FIGURE1_ROOT = "Respiratory & digestive system diseases"
FIGURE1 = {FIGURE1_ROOT: FIGURE1_BODY}
